import { randomBytes } from "node:crypto";
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { TronDriver } from "@/lib/chains/tron/tron-driver";
import { SignerShortOfTrx } from "@/lib/chains/tron/tron-funds";
import type { CandidateRow, OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { fundTronAddress, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";
import { minedInfo, tronSandboxForFile } from "./tron-harness";

// A role's Tron transfer is signed only when its TRX covers what it may burn beyond what its transfers on their
// way may still take (lib/chains/tron/tron-funds.ts): java-tron would run it until the TRX is gone and fail it
// OUT_OF_ENERGY, burning what it used. On an emulator of this file's own, charging mainnet's fees.
const chain = tronSandboxForFile();
const TRX = 1_000_000n;

const configOf = (info: TronSandboxInfo) =>
  ({
    mode: "sandbox",
    chain: "tron",
    family: "tron",
    rpcUrl: info.fullHost,
    extra: { jsonRpcUrl: info.jsonRpcUrl, anvilRpcUrl: info.anvilRpcUrl },
    chainId: null,
    tokenAddress: info.token,
    decimals: 6,
    blockTimeMs: info.blockTimeMs,
    emulated: true,
    confirmations: { threshold: 2, required: 19 },
    maxFeeWei: null,
    maxFeeLimitSun: 50n * TRX,
    maxComputeUnitPrice: null,
    solanaDetection: null,
    tronEnergyStrategy: "burn",
    sanctionsOracle: null,
  }) satisfies ChainConfig;

async function treasuryWith(info: TronSandboxInfo, trxSun: bigint) {
  const a = (await TronWeb.createAccount()) as unknown as { privateKey: string; address: { base58: string } };
  await fundTronAddress(info, a.address.base58, { usdtUnits: 100n * TRX, trxSun });
  return {
    address: a.address.base58,
    keys: { signer: { address: a.address.base58, privateKey: Buffer.from(a.privateKey, "hex") }, feePayer: null },
  };
}

const payoutFrom = (from: string, n: number) =>
  ({
    id: `out_funds_${n}`,
    purpose: "payout",
    signer: { role: "treasury" },
    asset: "token",
    fromAddress: from,
    toAddress: TronWeb.address.fromPrivateKey(randomBytes(32).toString("hex")) as string,
    rawAmount: TRX,
    options: {},
  }) as unknown as OutboundRow;

describe("a role's Tron transfer waits for the TRX it may burn", () => {
  it("signs while the TRX covers the fee limit beyond what transfers on their way reserve, and refuses (waits) " +
    "when it would run out of energy on chain; a top-up lets it through, and it lands", async () => {
    const driver = new TronDriver(configOf(chain.info));
    // A fresh recipient: 130,285 energy at 100 sun, a fee limit of 16.94 TRX (+ 0.4 TRX of bandwidth reserved).
    const treasury = await treasuryWith(chain.info, 25n * TRX);
    const first = payoutFrom(treasury.address, 1);
    const prepared = await driver.prepare(first, null, treasury.keys, 0n);
    expect(BigInt(prepared.feeLimit)).toBe(16_937_050n);
    const signed = await driver.sign(first, treasury.keys, prepared);
    const candidate = { ...signed, id: "cand_funds_1" } as unknown as CandidateRow;
    const reserved = driver.maxNativeCost(candidate);
    expect(reserved).toBe(16_937_050n + 400_000n);

    // While the first is on its way, 25 TRX less its reservation cannot pay a second.
    const second = payoutFrom(treasury.address, 2);
    const refusal = await driver.prepare(second, null, treasury.keys, reserved).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(SignerShortOfTrx);
    expect(refusal).toMatchObject({ balanceSun: 25n * TRX, reservedSun: reserved, needsSun: 17_337_050n });

    expect(await driver.broadcast(candidate)).toEqual({ sent: true });
    const landed = await minedInfo(chain.info, signed.txHash);
    expect(landed.receipt.result).toBe("SUCCESS");
    // Landed: 11.6 TRX left, short of the second's 17.3 (on chain it would have failed OUT_OF_ENERGY).
    await expect(driver.prepare(second, null, treasury.keys, 0n)).rejects.toBeInstanceOf(SignerShortOfTrx);

    await fundTronAddress(chain.info, treasury.address, { trxSun: 10n * TRX });
    const then = await driver.prepare(second, null, treasury.keys, 0n);
    const resigned = await driver.sign(second, treasury.keys, then);
    expect(await driver.broadcast({ ...resigned, id: "cand_funds_2" } as unknown as CandidateRow)).toEqual({
      sent: true,
    });
    expect((await minedInfo(chain.info, resigned.txHash)).receipt.result).toBe("SUCCESS");
  }, 60_000);

  it("a deposit address's sweep is not held to it: its plan sent it exactly its fee limit", async () => {
    const driver = new TronDriver(configOf(chain.info));
    const deposit = await treasuryWith(chain.info, 2n * TRX);
    const sweep = { ...payoutFrom(deposit.address, 3), purpose: "sweep", signer: { role: "deposit", index: 7 } };
    sweep.options = { feeLimitSun: String(20n * TRX) };
    await expect(driver.prepare(sweep as OutboundRow, null, deposit.keys, 0n)).resolves.toMatchObject({
      feeLimit: 20_000_000,
    });
  });
});
