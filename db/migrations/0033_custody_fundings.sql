CREATE TABLE "custody_fundings" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"role" text NOT NULL,
	"address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"tx_hash" text,
	"source" text NOT NULL,
	"note" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custody_fundings_role_check" CHECK ("custody_fundings"."role" in ('treasury','sweeper')),
	CONSTRAINT "custody_fundings_source_check" CHECK ("custody_fundings"."source" in ('faucet','operator')),
	CONSTRAINT "custody_fundings_nonzero" CHECK ("custody_fundings"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "custody_entries" DROP CONSTRAINT "custody_entries_account_check";--> statement-breakpoint
ALTER TABLE "custody_entries" DROP CONSTRAINT "custody_entries_cause_check";--> statement-breakpoint
CREATE UNIQUE INDEX "custody_fundings_tx_idx" ON "custody_fundings" USING btree ("mode","chain","tx_hash","address") WHERE "custody_fundings"."tx_hash" is not null;--> statement-breakpoint
CREATE INDEX "custody_fundings_time_idx" ON "custody_fundings" USING btree ("mode","chain","created_at");--> statement-breakpoint
ALTER TABLE "custody_entries" ADD CONSTRAINT "custody_entries_account_check" CHECK ("custody_entries"."account" in ('deposit_addresses','treasury','sweeper','in_flight','payers','payees','fees','token_account_rent','funding'));--> statement-breakpoint
ALTER TABLE "custody_entries" ADD CONSTRAINT "custody_entries_cause_check" CHECK ("custody_entries"."cause_type" in ('deposit','outbound','funding'));