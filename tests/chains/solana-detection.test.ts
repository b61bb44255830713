import { randomBytes } from "node:crypto";
import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  generateKeyPairSigner,
  address,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  getInitializeAccount3Instruction,
  getMintToInstruction,
  getTokenSize,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "@/lib/chains/chain-config";
import type { TokenTransfer } from "@/lib/chains/chain-adapter";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { SolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { decryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import { SOLANA_MINT_AUTHORITY_PURPOSE } from "@/sandbox/registrations";
import { sendAsAuthority } from "@/sandbox/solana/solana-faucet";
import { sandboxChain } from "../helpers/chains";

// How the watcher finds Solana deposits (SOLANA_DETECTION), on the suite's emulated chain, through the adapter
// the watcher uses: `blocks` (the default) reads each slot's block once; `accounts` polls watched token accounts.

/** USDT minted by the sandbox mint authority into a token account of `owner`'s that is not its associated one. */
async function mintIntoOtherAccount(config: ChainConfig, owner: string, units: bigint): Promise<string> {
  const authority = await createKeyPairSignerFromBytes(
    new Uint8Array(decryptSecret(masterKey(), config.extra.mintAuthority!, SOLANA_MINT_AUTHORITY_PURPOSE)),
  );
  const rpc = createSolanaRpc(config.rpcUrl);
  const account = await generateKeyPairSigner();
  const space = BigInt(getTokenSize());
  const rent = await rpc.getMinimumBalanceForRentExemption(space).send();
  const mint = address(config.tokenAddress);
  return sendAsAuthority(rpc, authority, [
    getCreateAccountInstruction({
      payer: authority,
      newAccount: account,
      lamports: rent,
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeAccount3Instruction({ account: account.address, mint, owner: address(owner) }),
    getMintToInstruction({ mint, token: account.address, mintAuthority: authority, amount: units }),
  ]);
}

/** Reads slots `from`.. until `want` of the owner's credits are found (the chain's confirmed head moves on). */
async function creditsTo(adapter: SolanaAdapter, owner: string, from: number, want: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const head = await adapter.head();
    const mine = (await adapter.transfers(from, head)).filter((t) => t.toKey === owner);
    if (mine.length >= want || Date.now() > deadline) return { mine, head };
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe("Solana deposit detection", () => {
  it("blocks: a credit into the owner's associated token account is taken; one into another token account of the " +
    "owner's is read but not taken", async () => {
    const config = await sandboxChain("solana");
    const adapter = new SolanaAdapter("solana", { ...config, solanaDetection: "blocks" });
    expect(adapter.scansAddresses).toBe(false);
    const owner = (await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(randomBytes(32)))).address as string;
    const start = (await adapter.head()) + 1;
    const paid = await (await sandboxChainOps(config)).payFromSandboxWallet(owner, 1_250_000n);
    const other = await mintIntoOtherAccount(config, owner, 700_000n);

    const { mine } = await creditsTo(adapter, owner, start, 2);
    expect(mine.map((t) => [t.txHash, t.rawAmount, t.from])).toEqual(
      expect.arrayContaining([
        [paid.txHash, 1_250_000n, paid.from],
        [other, 700_000n, null],
      ]),
    );
    expect(mine).toHaveLength(2);
    const kept = await adapter.keepMatched(mine);
    expect(kept.map((t) => t.txHash)).toEqual([paid.txHash]);

    // accounts (the polling choice): the same credit with the same identity (signature, position: the account's
    // index in the transaction), so switching between the two never records a deposit twice; the other
    // account is not watched at all.
    const polling = new SolanaAdapter("solana", { ...config, solanaDetection: "accounts" });
    expect(polling.scansAddresses).toBe(true);
    const polled = await polling.transfers(0, await polling.head(), [
      { key: owner, recordedRaw: 0n, recordedTx: new Set() },
    ]);
    const pick = ({ txHash, position, blockNumber, rawAmount, toKey }: TokenTransfer) => ({
      txHash,
      position,
      blockNumber,
      rawAmount,
      toKey,
    });
    expect(polled.map(pick)).toEqual(kept.map(pick));
  }, 60_000);
});
