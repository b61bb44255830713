CREATE TABLE "custody_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"journal_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"asset" text NOT NULL,
	"account" text NOT NULL,
	"address" text,
	"amount" numeric(78, 0) NOT NULL,
	"cause_type" text NOT NULL,
	"cause_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "custody_entries_asset_check" CHECK ("custody_entries"."asset" in ('usdt','native')),
	CONSTRAINT "custody_entries_account_check" CHECK ("custody_entries"."account" in ('deposit_addresses','treasury','sweeper','in_flight','payers','payees','fees','token_account_rent')),
	CONSTRAINT "custody_entries_cause_check" CHECK ("custody_entries"."cause_type" in ('deposit','outbound')),
	CONSTRAINT "custody_entries_nonzero" CHECK ("custody_entries"."amount" <> 0)
);
--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD COLUMN "rent_paid_native" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD COLUMN "rent_returned_native" numeric(78, 0);--> statement-breakpoint
CREATE INDEX "custody_entries_account_idx" ON "custody_entries" USING btree ("mode","chain","asset","account","address");--> statement-breakpoint
CREATE INDEX "custody_entries_journal_idx" ON "custody_entries" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "custody_entries_cause_idx" ON "custody_entries" USING btree ("cause_type","cause_id");