import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import {
  appendTransactionMessageInstructions,
  type Address,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type Signature,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type SolanaRpcApi,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { SolanaDriver } from "@/lib/chains/solana/solana-driver";
import type { CandidateRow, OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { fundSolanaAddress } from "@/sandbox/solana/solana-faucet";
import {
  readSolanaSandboxSecret,
  type RunningSolanaSandbox,
  startSolanaSandbox,
} from "@/sandbox/solana/solana-sandbox";
import { rawRpc, waitForSignatureStatus } from "../helpers/solana-rpc";

// The emulated Solana's fee market (sandbox/solana/fee-market.ts) and the driver that reads it, on an emulator of
// this file's own: its congestion would otherwise price every other file's transactions.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-solana-fees-"));
const SOL = 1_000_000_000n;
let sandbox: RunningSolanaSandbox;
let rpc: Rpc<SolanaRpcApi>;
let payer: KeyPairSigner;
let payerSeed: Uint8Array;

const raw = (method: string, params: unknown[]) => rawRpc(sandbox.info.rpcUrl, method, params);
const congest = async (microLamports: number) =>
  expect((await raw("sandbox_setPriorityFeeFloor", [microLamports])).result).toBe(microLamports);
const lamportsOf = async (a: Address) => (await rpc.getBalance(a, { commitment: "confirmed" }).send()).value;
const status = async (signature: Signature) =>
  (await rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send()).value[0];
const fees = async (accounts?: string[]) =>
  (await raw("getRecentPrioritizationFees", accounts ? [accounts] : [])) as {
    result?: Array<{ slot: number; prioritizationFee: number }>;
    error?: { code: number; message: string };
  };

let sent = 0;

/** A few lamports to itself (each transaction distinct), offering `price` micro-lamports for each of 1,000 units. */
async function pricedTransfer(price: number) {
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source: payer, destination: payer.address, amount: BigInt(++sent) })],
        m,
      ),
    (m) => setTransactionMessageComputeUnitLimit(1_000, m),
    (m) => setTransactionMessageComputeUnitPrice(BigInt(price), m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  expect(await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send()).toBe(
    signature,
  );
  return signature;
}

beforeAll(async () => {
  sandbox = await startSolanaSandbox({ dataDir, slotMs: 100 });
  rpc = createSolanaRpc(sandbox.info.rpcUrl);
  payerSeed = new Uint8Array(randomBytes(32));
  payer = await createKeyPairSignerFromPrivateKeyBytes(payerSeed);
  await fundSolanaAddress(sandbox.info, readSolanaSandboxSecret(dataDir), payer.address, {
    usdtUnits: 100_000_000n,
    lamports: 2n * SOL,
  });
});

afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("the emulated Solana fee market", () => {
  it(
    "reports per recent slot the lowest price paid, " + "raised to the given write-locked accounts' (Agave's cache)",
    async () => {
      sandbox.advanceSlots(1); // not in the slot of the payer's funding (price 0, which locked it too)
      const before = await lamportsOf(payer.address);
      const signature = await pricedTransfer(7_000);
      const landed = await waitForSignatureStatus(rpc, signature, "confirmed");
      // 5,000 per signature + 7,000 micro-lamports × 1,000 units (7 lamports); the lamports went to itself.
      expect(before - (await lamportsOf(payer.address))).toBe(5_000n + 7n);
      const mine = (await fees([payer.address])).result!;
      expect(mine.find((f) => f.slot === Number(landed!.slot))?.prioritizationFee).toBe(7_000);
      expect(mine.length).toBeLessThanOrEqual(150);
      expect(mine.map((f) => f.slot)).toEqual([...mine.map((f) => f.slot)].sort((a, b) => a - b));
      // A quiet account in a slot of its own: nothing paid.
      sandbox.advanceSlots(2);
      const quiet = (await fees([(await generateKeyPairSigner()).address])).result!;
      expect(quiet.at(-1)!.prioritizationFee).toBe(0);

      const many = Array.from({ length: 129 }, () => payer.address);
      expect((await fees(many)).error).toMatchObject({ code: -32602, message: expect.stringMatching(/max 128/) });
      expect((await fees(["not-an-address"])).error).toMatchObject({ code: -32602 });
    },
  );

  it(
    "under congestion every block reports the floor; a transaction under it is accepted and held, lands once the " +
      "price falls to its offer, and is lost when its blockhash expires first",
    async () => {
      try {
        await congest(50_000);
        sandbox.advanceSlots(3);
        expect((await fees()).result!.slice(-3).map((f) => f.prioritizationFee)).toEqual([50_000, 50_000, 50_000]);

        const low = await pricedTransfer(10_000);
        const lost = await pricedTransfer(1_000);
        const enough = await pricedTransfer(50_000);
        expect(await waitForSignatureStatus(rpc, enough, "confirmed")).toMatchObject({ err: null });
        sandbox.advanceSlots(5);
        expect(await status(low)).toBeNull();
        expect(await status(lost)).toBeNull();
        // The sandbox's own faucet is never priced out.
        const other = (await generateKeyPairSigner()).address;
        await fundSolanaAddress(sandbox.info, readSolanaSandboxSecret(dataDir), other, { lamports: SOL });
        expect(await lamportsOf(other)).toBe(SOL);

        await congest(10_000);
        sandbox.advanceSlots(1);
        expect(await status(low)).toMatchObject({ err: null }); // the same signature, landed late
        expect(await status(lost)).toBeNull();
        sandbox.advanceSlots(151); // past the lost one's blockhash
        await congest(0);
        sandbox.advanceSlots(2);
        expect(await status(lost)).toBeNull();
      } finally {
        await congest(0);
      }
    },
  );
});

describe("the Solana driver's compute budget", () => {
  const cap = 80_000n;
  const config = () =>
    ({
      mode: "sandbox",
      chain: "solana",
      family: "solana",
      rpcUrl: sandbox.info.rpcUrl,
      extra: {},
      chainId: null,
      tokenAddress: sandbox.info.mint,
      decimals: 6,
      blockTimeMs: 100,
      emulated: true,
      confirmations: { threshold: 2, required: 32 },
      maxFeeWei: null,
      maxFeeLimitSun: null,
      maxComputeUnitPrice: cap,
      solanaDetection: "blocks",
      tronEnergyStrategy: null,
      sanctionsOracle: null,
    }) satisfies ChainConfig;
  const keys = () => ({ signer: { address: payer.address as string, privateKey: payerSeed }, feePayer: null });
  const intent = async (n: number) =>
    ({
      id: `out_fee_test_${n}`,
      asset: "token",
      toAddress: (await generateKeyPairSigner()).address,
      rawAmount: 1_000_000n,
      options: {},
    }) as unknown as OutboundRow;

  it(
    "limits units to the simulation plus a fifth, offers the 75th percentile of recent prices, " +
      "and never more than the cap: priced out, the candidate waits and lands when the market calms",
    async () => {
      const driver = new SolanaDriver(config());
      try {
        sandbox.advanceSlots(20); // the earlier test's priced slots out of the window
        const quiet = await driver.prepare(await intent(1), null, keys());
        expect(quiet.unitPrice).toBe(0n);
        // Creating the recipient's token account and transferring: tens of thousands of units, not 2 × 200,000.
        expect(quiet.unitLimit).toBeGreaterThan(10_000);
        expect(quiet.unitLimit).toBeLessThan(100_000);

        await congest(50_000);
        sandbox.advanceSlots(20);
        expect((await driver.prepare(await intent(2), null, keys())).unitPrice).toBe(50_000n);

        await congest(200_000);
        sandbox.advanceSlots(20);
        const capped = await intent(3);
        const prepared = await driver.prepare(capped, null, keys());
        expect(prepared.unitPrice).toBe(cap);
        const signed = await driver.sign(capped, keys(), prepared);
        const candidate = { ...signed, id: "cand_fee_test" } as unknown as CandidateRow;
        expect(await driver.broadcast(candidate)).toEqual({ sent: true });
        sandbox.advanceSlots(5);
        expect(await driver.lookup(candidate)).toEqual({ state: "unknown" });

        await congest(0);
        await waitForSignatureStatus(rpc, signed.txHash as Signature, "confirmed");
        const landed = await driver.lookup(candidate);
        expect(landed).toMatchObject({ state: "landed", success: true });
        if (landed.state !== "landed") throw new Error("not landed");
        const priority = (cap * BigInt(prepared.unitLimit) + 999_999n) / 1_000_000n;
        expect(landed.feeNative).toBe(5_000n + priority);
        expect(landed.usage).toEqual({
          compute_units: expect.any(String),
          compute_unit_limit: String(prepared.unitLimit),
          compute_unit_price: String(cap),
        });
        expect(Number(landed.usage!.compute_units)).toBeLessThanOrEqual(prepared.unitLimit);
      } finally {
        await congest(0);
      }
    },
  );
});
