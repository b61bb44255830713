import { expect } from "vitest";
import { randomBytes, randomInt } from "node:crypto";
import { address, createKeyPairSignerFromPrivateKeyBytes, createSolanaRpc, type Signature } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { getDb } from "@/lib/platform/db/client";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { SolanaDriver } from "@/lib/chains/solana/solana-driver";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { walletSeed } from "@/lib/chains/wallets/wallet-seed";
import { sandboxChain } from "../helpers/chains";
import { waitFor } from "./outbound-helpers";

const COMMITMENT = { commitment: "confirmed" } as const;

/** The sandbox solana chain as the outbound tests drive it: balances, accounts, signatures, slots, deposit keys. */
export async function solanaChain() {
  const config = await sandboxChain("solana");
  const rpc = createSolanaRpc(config.rpcUrl);
  const adapter = createChainAdapter(config);
  const ops = await sandboxChainOps(config);
  const mint = address(config.tokenAddress);
  const [treasury, sweeper] = await Promise.all([
    roleKey(getDb(), "sandbox", "solana", "treasury"),
    roleKey(getDb(), "sandbox", "solana", "sweeper"),
  ]);
  const ataOf = async (owner: string) =>
    (await findAssociatedTokenPda({ owner: address(owner), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  const lamports = async (account: string) => (await rpc.getBalance(address(account), COMMITMENT).send()).value;
  return {
    config,
    rpc,
    ops,
    treasury,
    sweeper,
    driver: new SolanaDriver(config),
    ataOf,
    lamports,
    usdtOf: async (owner: string) => (await adapter.balances(owner)).token,
    accountExists: async (account: string) =>
      (await rpc.getAccountInfo(address(account), { ...COMMITMENT, encoding: "base64" }).send()).value !== null,
    freshAddress: async () =>
      (await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(randomBytes(32)))).address as string,
    /** Successful transactions that touched `owner`'s token account: the transfers that really landed into it. */
    transfersTo: async (owner: string) =>
      (await rpc.getSignaturesForAddress(await ataOf(owner), COMMITMENT).send()).filter((s) => s.err === null).length,
    /** The next `count` transactions `feePayer` sends are accepted and never land (the emulator's drop control). */
    dropNext: async (count: number, feePayer: string) => {
      const res = await fetch(config.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "sandbox_dropNextTransactions",
          params: [count, feePayer],
        }),
      });
      expect(((await res.json()) as { result?: number }).result).toBe(count);
    },
    /** Whether any node knows the signature (searching the whole history). */
    known: async (signature: string) =>
      (await rpc.getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send()).value[0] !==
      null,
    /**
     * A deposit address of the sandbox seed at an index no payment reaches (the tests' own range), paid USDT by
     * a wallet's transfer (which creates its token account) and holding no SOL, as a real deposit address.
     */
    async fundedDeposit(raw: bigint) {
      const index = 2 ** 30 + randomInt(2 ** 30);
      const owner = deriveAddress(await walletSeed(getDb(), "sandbox"), "solana", index).address;
      await ops.payFromSandboxWallet(owner, raw);
      await waitFor("the deposit's USDT", async () => (await adapter.balances(owner)).token === raw);
      return { index, owner };
    },
  };
}

export type SolanaChain = Awaited<ReturnType<typeof solanaChain>>;

/** A sweep: the deposit address (its key by index) sends its USDT to the treasury and closes its token account. */
export function sweepToTreasury(chain: SolanaChain, deposit: { index: number; owner: string }, raw: bigint) {
  return createOutbound(getDb(), {
    mode: "sandbox",
    chain: "solana",
    purpose: "sweep",
    signer: { role: "deposit", index: deposit.index },
    fromAddress: deposit.owner,
    toAddress: chain.treasury.address,
    asset: "token",
    rawAmount: raw,
    options: { closeAccount: true, rentTo: chain.treasury.address },
  });
}
