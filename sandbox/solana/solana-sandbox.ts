import fs from "node:fs";
import { createKeyPairSignerFromBytes, generateKeyPairSigner, type Address } from "@solana/kit";
import { LiteSVM } from "litesvm";
import { freePort } from "@/lib/platform/db/embedded";
import { AccountStore } from "./account-store";
import {
  airdropFrom,
  createUsdtMint,
  fundFaucet,
  newSecretKey,
  restoreMintAccount,
  USDT_DECIMALS,
} from "./chain-actions";
import type { FacadeContext } from "./context";
import { Executor } from "./executor";
import { Ledger } from "./ledger-state";
import { loadState, readRegistry, SnapshotWriter, solanaDir, writeRegistry, type SolanaRegistry } from "./persistence";
import { startRpcServer, type RpcServer } from "./rpc-server";

export { readSolanaSandboxSecret } from "./persistence";

/**
 * The sandbox "solana" chain: LiteSVM (a real SVM with SPL Token built in) behind a Solana JSON-RPC
 * facade, so unmodified @solana/kit clients work against it. See README.md for what is emulated.
 */

export interface SolanaSandboxInfo {
  rpcUrl: string;
  mint: string;
  decimals: 6;
  mintAuthority: string;
  slotMs: number;
  /** Slots from the confirmed tip to the finalized one: the chain's finality depth. */
  finalityDepth: number;
}

export interface RunningSolanaSandbox {
  info: SolanaSandboxInfo;
  stop(): Promise<void>;
  /** Test knob: produces `count` slots at once (e.g. to age a blockhash past 150 slots). */
  advanceSlots(count: number): void;
}

const SNAPSHOT_INTERVAL_MS = 1000;
const INITIAL_AUTHORITY_LAMPORTS = 10n * 1_000_000_000n;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function createSvm(): LiteSVM {
  // The facade checks signatures, blockhash age and duplicates itself (with the node's errors and a
  // 150-slot window); LiteSVM would only accept its single latest blockhash.
  return new LiteSVM().withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
}

async function listen(
  ctx: FacadeContext,
  wanted: number | undefined,
  remembered: number | undefined,
): Promise<RpcServer> {
  if (wanted !== undefined) return startRpcServer(wanted, ctx);
  if (remembered !== undefined) {
    try {
      return await startRpcServer(remembered, ctx);
    } catch {
      // Taken by something else now: move to a free port (the registry records the new one).
    }
  }
  return startRpcServer(await freePort(), ctx);
}

export async function startSolanaSandbox(opts: {
  dataDir: string;
  slotMs?: number;
  port?: number;
  /** Slots to finalize (a real cluster's 32 unless a test stack wants finality sooner). */
  finalityDepth?: number;
}): Promise<RunningSolanaSandbox> {
  const dir = solanaDir(opts.dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const slotMs = opts.slotMs ?? 400;
  const registry = readRegistry(dir);
  const loaded = registry ? loadState(dir) : null;

  const svm = createSvm();
  const store = new AccountStore(svm);
  for (const [address, state] of loaded?.accounts ?? []) store.set(address, state);
  const ledger = new Ledger(loaded?.ledger ?? Ledger.genesis(nowSeconds()), loaded?.records ?? [], opts.finalityDepth);
  const syncClock = () => {
    svm.warpToSlot(BigInt(ledger.slot));
    const clock = svm.getClock();
    clock.unixTimestamp = BigInt(ledger.slotInfo(ledger.slot)?.time ?? nowSeconds());
    svm.setClock(clock);
  };
  syncClock();
  const executor = new Executor(svm, store, ledger);
  const faucetSecret = registry ? Uint8Array.from(registry.faucetSecret) : newSecretKey();
  const faucet = await createKeyPairSignerFromBytes(faucetSecret);
  const ctx: FacadeContext = {
    store,
    ledger,
    executor,
    genesisHash: registry?.genesisHash ?? ledger.slotInfo(0)!.hash,
    airdrop: (to, lamports) => airdropFrom(ctx, faucet, to, lamports),
    advanceSlots: (count) => {
      for (let i = 0; i < count; i++) produceSlot();
    },
  };

  // Each slot: a fresh blockhash (LiteSVM's expires too), the clock
  // warped to it, and account history `finalized` no longer needs dropped.
  const produceSlot = () => {
    svm.expireBlockhash();
    ledger.advance(nowSeconds());
    syncClock();
    store.prune(ledger.commitmentSlot("finalized"));
    executor.openSlot();
  };

  const authoritySecret = registry ? Uint8Array.from(registry.mintAuthoritySecret) : newSecretKey();
  const authority = await createKeyPairSignerFromBytes(authoritySecret);
  let mint = registry?.mint;
  executor.fees.exemptFeePayer(faucet.address);
  executor.fees.exemptFeePayer(authority.address);
  if (!store.get(faucet.address)) fundFaucet(ctx, faucet.address);
  if (!mint) {
    produceSlot(); // genesis (slot 0) holds no transactions
    const mintSigner = await generateKeyPairSigner();
    await createUsdtMint(ctx, faucet, mintSigner, authority.address);
    await airdropFrom(ctx, faucet, authority.address, INITIAL_AUTHORITY_LAMPORTS);
    mint = mintSigner.address as string;
  } else if (!store.get(mint)) {
    restoreMintAccount(ctx, mint, authority.address);
  }

  const server = await listen(ctx, opts.port, registry?.port);
  const saved: SolanaRegistry = {
    port: server.port,
    mint,
    genesisHash: ctx.genesisHash,
    mintAuthoritySecret: [...authoritySecret],
    faucetSecret: [...faucetSecret],
  };
  writeRegistry(dir, saved);
  const snapshots = new SnapshotWriter(dir, store, ledger, loaded?.records.length ?? 0);
  snapshots.save();

  const guarded = (what: string, fn: () => void) => () => {
    try {
      fn();
    } catch (error) {
      console.error(`[solana-sandbox] ${what} failed:`, error);
    }
  };
  const slotTimer = setInterval(guarded("slot", produceSlot), slotMs);
  const snapshotTimer = setInterval(
    guarded("snapshot", () => snapshots.saveIfDirty()),
    SNAPSHOT_INTERVAL_MS,
  );

  let stopped: Promise<void> | null = null;
  return {
    info: {
      rpcUrl: `http://127.0.0.1:${server.port}`,
      mint,
      decimals: USDT_DECIMALS,
      mintAuthority: authority.address as Address as string,
      slotMs,
      finalityDepth: ledger.finalityDepth,
    },
    advanceSlots: (count) => ctx.advanceSlots(count),
    stop() {
      stopped ??= (async () => {
        clearInterval(slotTimer);
        clearInterval(snapshotTimer);
        await server.close();
        snapshots.save();
      })();
      return stopped;
    },
  };
}
