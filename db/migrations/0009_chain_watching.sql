CREATE TABLE "chain_blocks" (
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_mode_chain_number_pk" PRIMARY KEY("mode","chain","number")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text,
	"block_time" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_cursors_mode_chain_pk" PRIMARY KEY("mode","chain")
);
--> statement-breakpoint
CREATE TABLE "sandbox_chains" (
	"chain" text PRIMARY KEY NOT NULL,
	"rpc_url" text NOT NULL,
	"extra" text DEFAULT '{}' NOT NULL,
	"chain_id" bigint,
	"token_address" text NOT NULL,
	"decimals" integer NOT NULL,
	"block_time_ms" integer NOT NULL,
	"emulated" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" timestamp (3) with time zone NOT NULL,
	"from_address" text,
	"to_address" text NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"amount_units" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp (3) with time zone,
	"orphaned_at" timestamp (3) with time zone,
	CONSTRAINT "deposits_amount_nonnegative" CHECK ("deposits"."amount_units" >= 0),
	CONSTRAINT "deposits_status_check" CHECK ("deposits"."status" in ('pending','credited','orphaned')),
	CONSTRAINT "deposits_kind_check" CHECK ("deposits"."kind" in ('payment','wrong_network'))
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "watch_key" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "amount_received_units" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "tx_block_number" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "closed_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_transfer_key" ON "deposits" USING btree ("mode","chain","tx_hash","log_index") WHERE "deposits"."status" <> 'orphaned';--> statement-breakpoint
CREATE INDEX "deposits_payment_idx" ON "deposits" USING btree ("payment_id","block_number","log_index");--> statement-breakpoint
CREATE INDEX "deposits_uncredited_idx" ON "deposits" USING btree ("mode","chain","block_number") WHERE "deposits"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_watch_key_idx" ON "payments" USING btree ("mode","watch_key") WHERE "payments"."watch_key" is not null;--> statement-breakpoint
CREATE INDEX "payments_in_flight_idx" ON "payments" USING btree ("mode","chain","status") WHERE "payments"."status" in ('pending','confirming');--> statement-breakpoint
CREATE INDEX "payments_awaiting_expiry_idx" ON "payments" USING btree ("mode","chain","expires_at") WHERE "payments"."status" = 'awaiting_payment';--> statement-breakpoint
-- Payments created before chain watching existed get their watch keys (Tron rows need base58 decoding:
-- lib/db/migrate.ts fills them in after the migrations).
UPDATE "payments" SET "watch_key" = lower("deposit_address") WHERE "chain" in ('eth','bnb','polygon') AND "deposit_address" IS NOT NULL;--> statement-breakpoint
UPDATE "payments" SET "watch_key" = "deposit_address" WHERE "chain" = 'solana' AND "deposit_address" IS NOT NULL;
