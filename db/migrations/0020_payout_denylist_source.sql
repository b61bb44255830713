DROP INDEX "payout_denylist_entry_key";--> statement-breakpoint
ALTER TABLE "payout_denylist" ADD COLUMN "source" text DEFAULT 'cli' NOT NULL;--> statement-breakpoint
CREATE INDEX "payout_denylist_address_idx" ON "payout_denylist" USING btree ("address");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_denylist_entry_key" ON "payout_denylist" USING btree (coalesce("chain", '*'),"address","source");--> statement-breakpoint
ALTER TABLE "payout_denylist" ADD CONSTRAINT "payout_denylist_source_check" CHECK ("payout_denylist"."source" in ('cli','ofac'));