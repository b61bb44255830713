import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { OutboundDriver, SignedCandidate } from "@/lib/chains/outbound-driver";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import type { CandidateRow, OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { signCandidate } from "@/lib/money-out/outbound/sign-candidate";

// The engine hands a driver that prices its candidates' native cost (Tron) what the same signer's other
// transactions on their way may still take: signed or broadcast, not yet in a block. Live mode, where no
// leader of the test run signs. The recording driver stands for the chain's: the engine's query is under test.

function recordingDriver() {
  const reserved: bigint[] = [];
  const driver: OutboundDriver<object> = {
    usesNonces: false,
    async prepare(_intent, _previous, _keys, reservedNative) {
      reserved.push(reservedNative ?? -1n);
      return {};
    },
    async sign(intent: OutboundRow): Promise<SignedCandidate> {
      const cost = intent.rawAmount * 10n;
      return {
        txHash: `tx_${intent.id}`,
        signedTx: JSON.stringify({ cost: cost.toString() }),
        nonce: null,
        maxFeePerGas: null,
        maxPriorityFeePerGas: null,
        validUntil: null,
      };
    },
    maxNativeCost: (candidate: CandidateRow) => BigInt((JSON.parse(candidate.signedTx) as { cost: string }).cost),
    broadcast: async () => ({ sent: true }),
    lookup: async () => ({ state: "unknown" }),
    cannotLand: async () => false,
  };
  return { driver, reserved };
}

const address = () => `T${randomBytes(16).toString("hex")}`;
const topUp = (from: string, amount: bigint) =>
  createOutbound(getDb(), {
    mode: "live",
    chain: "tron",
    purpose: "gas_topup",
    signer: { role: "sweeper" },
    fromAddress: from,
    toAddress: address(),
    asset: "native",
    rawAmount: amount,
  });

describe("native coin reserved for a signer's transactions on their way", () => {
  it(
    "counts the signer's signed and broadcast candidates, " + "not another signer's nor those already in a block",
    async () => {
      const { driver, reserved } = recordingDriver();
      const a = address();
      const keys = { signer: { address: a, privateKey: new Uint8Array(32) }, feePayer: null };
      const sign = async (intent: OutboundRow, signer = keys) =>
        (await signCandidate(getDb(), driver, signer, intent, "first", null))!;

      const first = await topUp(a, 1n); // costs 10
      await sign(first);
      const b = address();
      await sign(await topUp(b, 5n), { signer: { address: b, privateKey: new Uint8Array(32) }, feePayer: null });
      const second = await topUp(a, 2n); // costs 20
      await sign(second);
      // The first is broadcast now: still on its way.
      await query(getDb(), "update outbound_transactions set status = 'broadcast' where id = $1", [first.id]);
      await query(getDb(), "update outbound_candidates set status = 'broadcast' where outbound_id = $1", [first.id]);
      await sign(await topUp(a, 4n));
      // The first is in a block: the chain's balance already shows what it took.
      await query(getDb(), "update outbound_transactions set status = 'mined' where id = $1", [first.id]);
      await query(getDb(), "update outbound_candidates set status = 'mined' where outbound_id = $1", [first.id]);
      await sign(await topUp(a, 8n));

      expect(reserved).toEqual([0n, 0n, 10n, 30n, 60n]);
    },
  );
});
