CREATE TABLE "balances" (
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"available_units" bigint DEFAULT 0 NOT NULL,
	"reserved_units" bigint DEFAULT 0 NOT NULL,
	"in_flight_units" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "balances_merchant_id_mode_chain_pk" PRIMARY KEY("merchant_id","mode","chain"),
	CONSTRAINT "balances_available_nonnegative" CHECK ("balances"."available_units" >= 0),
	CONSTRAINT "balances_reserved_nonnegative" CHECK ("balances"."reserved_units" >= 0),
	CONSTRAINT "balances_in_flight_nonnegative" CHECK ("balances"."in_flight_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"account" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_account_check" CHECK ("ledger_entries"."account" in ('available','reserved','payouts_in_flight','chain_deposits','chain_withdrawals','adjustments')),
	CONSTRAINT "ledger_entries_nonzero" CHECK ("ledger_entries"."amount_units" <> 0)
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"chain" text NOT NULL,
	"to_address" text NOT NULL,
	"amount_units" bigint NOT NULL,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tx_hash" text,
	"confirmations" integer,
	"created_at" timestamp (3) with time zone NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount_units" > 0),
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('pending','review_required','processing','confirmed','failed','blocked')),
	CONSTRAINT "payouts_chain_check" CHECK ("payouts"."chain" in ('eth','bnb','polygon','tron','solana'))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_owner_idx" ON "ledger_entries" USING btree ("merchant_id","mode","chain","account");--> statement-breakpoint
CREATE INDEX "ledger_entries_cause_idx" ON "ledger_entries" USING btree ("cause_type","cause_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_journal_idx" ON "ledger_entries" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "payouts_owner_idx" ON "payouts" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "payouts_owner_status_idx" ON "payouts" USING btree ("merchant_id","mode","status","created_at","id");