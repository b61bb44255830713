-- The balance transactions (docs/API.md#balance-transactions): each `available` entry carries the merchant's
-- available balance on its chain right after it. New entries get it under the balances row's lock
-- (lib/books/ledger/post-journal.ts); existing ones are given the running sum in entry order, which ends at
-- each balances row's available_units (the ledger check proves both).
ALTER TABLE "ledger_entries" ADD COLUMN "available_after_units" bigint;--> statement-breakpoint
UPDATE "ledger_entries" e SET "available_after_units" = r.running
  FROM (SELECT id, sum(amount_units) OVER (PARTITION BY merchant_id, mode, chain ORDER BY id) AS running
          FROM "ledger_entries" WHERE account = 'available') r
 WHERE e.id = r.id;--> statement-breakpoint
CREATE INDEX "ledger_entries_available_idx" ON "ledger_entries" USING btree ("merchant_id","mode","id") WHERE "ledger_entries"."account" = 'available';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_available_after" CHECK (("ledger_entries"."account" = 'available') = ("ledger_entries"."available_after_units" is not null));
