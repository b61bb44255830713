import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { BlockRef } from "@/lib/chains/chain-adapter";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { MatchedTransfer } from "@/lib/money-in/deposits/match-transfers";
import { creditSettledDeposits } from "@/lib/money-in/deposits/credit-deposits";
import {
  orphanPaymentDeposits as orphanDeposits,
  recordPaymentDeposits as recordDeposits,
  reversePaymentDeposits as reverseCreditedDeposits,
} from "@/lib/money-in/payments/apply-deposits";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { api, newMerchant } from "../helpers/api";

// The deposit bookkeeping of one watcher step, driven directly against the real database with transfers
// as an adapter reports them. The scope is a `live` bnb watcher (none runs in tests, so no watcher of
// another test file sees these made-up blocks); the payment is a sandbox eth payment, so these transfers
// are wrong-network deposits: credited on their own, whatever the payment does.
const scope: WatchScope = {
  mode: "live",
  chain: "bnb",
  decimals: 6,
  confirmations: { threshold: 2, required: 4 },
  lateWindowMs: 86_400_000,
};
const block = (n: number): BlockRef => ({ number: n, hash: `0x${n.toString(16).padStart(64, "0")}`, time: new Date() });

async function setup() {
  const m = await newMerchant();
  const reply = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "5.000000", chain: "eth" } });
  expect(reply.status, reply.text).toBe(200);
  const txHash = `0x${randomBytes(32).toString("hex")}`;
  const transfer = (logIndex: number, blockNumber: number): MatchedTransfer => ({
    paymentId: reply.json.id,
    txHash,
    logIndex,
    position: 0,
    blockNumber,
    blockHash: block(blockNumber).hash,
    from: "0x0000000000000000000000000000000000000001",
    toKey: reply.json.deposit_address.toLowerCase(),
    rawAmount: 5_000_000n,
  });
  const record = (t: MatchedTransfer) =>
    inTransaction(getDb(), (tx) =>
      recordDeposits(tx, scope, [t], new Map([[t.blockNumber, block(t.blockNumber)]]), block(t.blockNumber + 1)),
    );
  const rows = () =>
    query<{ id: string; status: string; log_index: number; block_number: string }>(
      getDb(),
      "select id, status, log_index, block_number::text from deposits where payment_id = $1",
      [reply.json.id],
    );
  const balance = async () => {
    const [b] = await query<{ available: string; reserved: string }>(
      getDb(),
      `select available_units::text as available, reserved_units::text as reserved from balances
       where merchant_id = $1 and mode = 'live' and chain = 'bnb'`,
      [m.id],
    );
    return b;
  };
  return { m, txHash, transfer, record, rows, balance };
}

describe("a deposit is its transaction and its position in it", () => {
  it(
    "the same transfer reported at another log index (re-mined in another block) " + "is not a second deposit",
    async () => {
      const { m, transfer, record, rows, balance } = await setup();
      expect(await record(transfer(3, 100))).toBe(1);
      expect(await record(transfer(7, 104))).toBe(0);
      expect(await rows()).toEqual([expect.objectContaining({ status: "pending", log_index: 3, block_number: "100" })]);
      expect(await balance()).toEqual({ available: "0", reserved: "5000000" });

      // Orphaned by a shallow reorg, then mined again elsewhere: the same row comes back, at its new place.
      const id = (await rows())[0]!.id;
      await inTransaction(getDb(), (tx) => orphanDeposits(tx, scope, [id]));
      expect(await balance()).toEqual({ available: "0", reserved: "0" });
      expect(await record(transfer(9, 106))).toBe(1);
      expect(await record(transfer(2, 107))).toBe(0);
      expect(await rows()).toEqual([{ id, status: "pending", log_index: 9, block_number: "106" }]);
      expect(await balance()).toEqual({ available: "0", reserved: "5000000" });
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );

  it(
    "a credited deposit reversed by a deep reorg becomes a receivable for what available cannot cover; " +
      "re-mined, it settles it and credits once",
    async () => {
      const { m, transfer, record, rows, balance } = await setup();
      await record(transfer(1, 200));
      await inTransaction(getDb(), (tx) => creditSettledDeposits(tx, scope, block(210)));
      expect(await balance()).toEqual({ available: "5000000", reserved: "0" });
      // The merchant has since spent 3 of it: 2 are left to take back.
      await adjustBalance(getDb(), {
        merchantId: m.id,
        mode: "live",
        chain: "bnb",
        amount: -3_000_000n,
        reason: "test",
      });

      const id = (await rows())[0]!.id;
      const reversals = await inTransaction(getDb(), (tx) => reverseCreditedDeposits(tx, scope, [id], 199));
      expect(reversals).toEqual([
        expect.objectContaining({
          depositId: id,
          amountUnits: 5_000_000n,
          takenFromAvailableUnits: 2_000_000n,
          receivableUnits: 3_000_000n,
        }),
      ]);
      expect(await balance()).toEqual({ available: "0", reserved: "0" });
      expect(await rows()).toEqual([expect.objectContaining({ status: "orphaned" })]);
      const [open] = await query<{ receivable_units: string; settled_at: Date | null }>(
        getDb(),
        "select receivable_units::text, settled_at from reorg_reversals where deposit_id = $1",
        [id],
      );
      expect(open).toEqual({ receivable_units: "3000000", settled_at: null });
      const [owed] = await query<{ sum: string }>(
        getDb(),
        "select sum(amount_units)::text from ledger_entries where merchant_id = $1 and account = 'reorg_receivables'",
        [m.id],
      );
      expect(owed!.sum).toBe("-3000000");
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);

      // The transaction is mined again at another log index: one deposit, credited once, receivable settled.
      expect(await record(transfer(4, 215))).toBe(1);
      expect(await record(transfer(6, 216))).toBe(0);
      expect(await balance()).toEqual({ available: "0", reserved: "5000000" });
      expect(await inTransaction(getDb(), (tx) => creditSettledDeposits(tx, scope, block(230)))).toBe(1);
      expect(await inTransaction(getDb(), (tx) => creditSettledDeposits(tx, scope, block(240)))).toBe(0);
      expect(await rows()).toEqual([{ id, status: "credited", log_index: 4, block_number: "215" }]);
      // Back to what it was before the reorg: 2 available, nothing owed.
      expect(await balance()).toEqual({ available: "2000000", reserved: "0" });
      const [settled] = await query<{ settled_block_number: string; settled: boolean }>(
        getDb(),
        "select settled_block_number::text, settled_at is not null as settled " +
          "from reorg_reversals where deposit_id = $1",
        [id],
      );
      expect(settled).toEqual({ settled_block_number: "215", settled: true });
      expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
    },
  );
});
