CREATE TABLE "reorg_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"deposit_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"tx_hash" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"taken_from_available_units" bigint NOT NULL,
	"receivable_units" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"ancestor_block_number" bigint NOT NULL,
	"detected_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp (3) with time zone,
	"settled_block_number" bigint,
	CONSTRAINT "reorg_reversals_amounts" CHECK ("reorg_reversals"."taken_from_available_units" >= 0 and "reorg_reversals"."receivable_units" >= 0 and "reorg_reversals"."taken_from_available_units" + "reorg_reversals"."receivable_units" = "reorg_reversals"."amount_units")
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_check";--> statement-breakpoint
DROP INDEX "deposits_transfer_key";--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "position" integer;--> statement-breakpoint
-- Backfill: a transfer's position within its transaction. Solana rows already hold it (the token account's
-- index in the transaction); EVM and Tron rows hold the log's index in the block, so the position is the
-- rank of the recorded logs of the transaction within its block (exact for the usual one-transfer transaction).
UPDATE "deposits" d SET "position" = r."position" FROM (
  SELECT "id", CASE WHEN "chain" = 'solana' THEN "log_index"
    ELSE (row_number() OVER (PARTITION BY "mode", "chain", "tx_hash", "block_hash" ORDER BY "log_index") - 1)::integer END AS "position"
  FROM "deposits") r WHERE d."id" = r."id";--> statement-breakpoint
-- A transfer recorded twice before this key existed (orphaned, then recorded again in another block) keeps
-- its position on the row still on the chain (else the newest); the older duplicates keep a null position.
UPDATE "deposits" d SET "position" = NULL FROM (
  SELECT "id", row_number() OVER (PARTITION BY "mode", "chain", "tx_hash", "position"
    ORDER BY ("status" = 'orphaned'), "created_at" DESC, "id") AS "rank"
  FROM "deposits") r WHERE d."id" = r."id" AND r."rank" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "reorg_reversals_open_key" ON "reorg_reversals" USING btree ("deposit_id") WHERE "reorg_reversals"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "reorg_reversals_detected_idx" ON "reorg_reversals" USING btree ("mode","chain","detected_at");--> statement-breakpoint
CREATE INDEX "reorg_reversals_merchant_idx" ON "reorg_reversals" USING btree ("merchant_id","detected_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_transfer_key" ON "deposits" USING btree ("mode","chain","tx_hash","position");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available','reserved','payouts_in_flight','chain_deposits','chain_withdrawals','adjustments','reorg_receivables'));