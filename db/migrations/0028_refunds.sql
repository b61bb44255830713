CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"payment_id" text NOT NULL,
	"chain" text NOT NULL,
	"status" text NOT NULL,
	"destination" text NOT NULL,
	"to_address" text,
	"amount_units" bigint NOT NULL,
	"reason" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"claim_token_hash" text,
	"claim_token_sealed" text,
	"outbound_id" text,
	"tx_hash" text,
	"confirmations" integer,
	"failure_code" text,
	"failure_message" text,
	"created_by_user_id" text,
	"created_by_key_id" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"succeeded_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_units" > 0),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requires_action','pending','processing','succeeded','failed','canceled')),
	CONSTRAINT "refunds_destination_check" CHECK ("refunds"."destination" in ('address','sender','claim')),
	CONSTRAINT "refunds_chain_check" CHECK ("refunds"."chain" in ('eth','bnb','polygon','tron','solana')),
	CONSTRAINT "refunds_address_known" CHECK ("refunds"."to_address" is not null or ("refunds"."destination" = 'claim' and "refunds"."status" in ('requires_action','canceled')))
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_check";--> statement-breakpoint
ALTER TABLE "outbound_transactions" DROP CONSTRAINT "outbound_purpose_check";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_refunded_units" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "payer_address" text;--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "refunds_in_flight_units" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_owner_idx" ON "refunds" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_owner_status_idx" ON "refunds" USING btree ("merchant_id","mode","status","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_claim_token_key" ON "refunds" USING btree ("claim_token_hash") WHERE "refunds"."claim_token_hash" is not null;--> statement-breakpoint
CREATE INDEX "refunds_claim_expiry_idx" ON "refunds" USING btree ("expires_at") WHERE "refunds"."status" = 'requires_action';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_refunded_nonnegative" CHECK ("payments"."amount_refunded_units" >= 0);--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_refunds_in_flight_nonnegative" CHECK ("balances"."refunds_in_flight_units" >= 0);--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available','reserved','payouts_in_flight','refunds_in_flight','chain_deposits','chain_withdrawals','adjustments','reorg_receivables'));--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD CONSTRAINT "outbound_purpose_check" CHECK ("outbound_transactions"."purpose" in ('sweep','sweep_batch','gas_topup','payout','refund','cancel','account_close','deploy'));--> statement-breakpoint
-- Backfill: who completed each payment, from the deposits already recorded (the transfer that set tx_hash).
UPDATE "payments" p SET "payer_address" = d."from_address"
  FROM "deposits" d
 WHERE p."tx_hash" IS NOT NULL AND d."payment_id" = p."id" AND d."tx_hash" = p."tx_hash"
   AND d."kind" = 'payment' AND d."status" <> 'orphaned' AND d."from_address" IS NOT NULL;
