-- Deposit addresses (docs/API.md#deposit-addresses): a customer's permanent address per chain, from the `deposit`
-- range of the HD pools (indexes from 2^30; payments keep counting from 0), and their deposits in `deposits`
-- (kind `address`, no payment). Existing pool rows and counters are the `payment` range.
CREATE TABLE "deposit_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"customer_id" text,
	"chain" text NOT NULL,
	"family" text NOT NULL,
	"address" text NOT NULL,
	"watch_key" text NOT NULL,
	"derivation_index" bigint NOT NULL,
	"status" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_status_check" CHECK ("deposit_addresses"."status" in ('active','disabled'))
);
--> statement-breakpoint
ALTER TABLE "deposit_address_pool" DROP CONSTRAINT "deposit_address_pool_allocation";--> statement-breakpoint
ALTER TABLE "deposits" DROP CONSTRAINT "deposits_status_check";--> statement-breakpoint
ALTER TABLE "deposits" DROP CONSTRAINT "deposits_kind_check";--> statement-breakpoint
DROP INDEX "deposit_address_pool_free_order";--> statement-breakpoint
ALTER TABLE "deposit_index_counters" DROP CONSTRAINT "deposit_index_counters_mode_family_pk";--> statement-breakpoint
ALTER TABLE "deposits" ALTER COLUMN "payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "reorg_reversals" ALTER COLUMN "payment_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deposit_address_pool" ADD COLUMN "purpose" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "deposit_address_pool" ADD COLUMN "deposit_address_id" text;--> statement-breakpoint
ALTER TABLE "deposit_index_counters" ADD COLUMN "purpose" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "deposit_index_counters" ADD CONSTRAINT "deposit_index_counters_mode_family_purpose_pk" PRIMARY KEY("mode","family","purpose");--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "deposit_address_id" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "address_disabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_customer_chain_key" ON "deposit_addresses" USING btree ("merchant_id","mode","customer_id","chain") WHERE "deposit_addresses"."customer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_key" ON "deposit_addresses" USING btree ("mode","family","address");--> statement-breakpoint
CREATE INDEX "deposit_addresses_watch_key_idx" ON "deposit_addresses" USING btree ("mode","watch_key");--> statement-breakpoint
CREATE INDEX "deposit_addresses_owner_idx" ON "deposit_addresses" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "deposit_addresses_customer_idx" ON "deposit_addresses" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_address_pool_deposit_address_key" ON "deposit_address_pool" USING btree ("deposit_address_id") WHERE "deposit_address_pool"."deposit_address_id" is not null;--> statement-breakpoint
CREATE INDEX "deposits_deposit_address_idx" ON "deposits" USING btree ("deposit_address_id","block_number","log_index") WHERE "deposits"."deposit_address_id" is not null;--> statement-breakpoint
CREATE INDEX "deposits_owner_idx" ON "deposits" USING btree ("merchant_id","mode","created_at","id") WHERE "deposits"."kind" = 'address';--> statement-breakpoint
CREATE INDEX "deposit_address_pool_free_order" ON "deposit_address_pool" USING btree ("mode","family","purpose",("derivation_index" + 0)) WHERE "deposit_address_pool"."allocated_at" is null;--> statement-breakpoint
ALTER TABLE "deposit_address_pool" ADD CONSTRAINT "deposit_address_pool_purpose" CHECK (("deposit_address_pool"."purpose" = 'payment' or "deposit_address_pool"."payment_id" is null) and ("deposit_address_pool"."purpose" = 'deposit' or "deposit_address_pool"."deposit_address_id" is null));--> statement-breakpoint
ALTER TABLE "deposit_address_pool" ADD CONSTRAINT "deposit_address_pool_purpose_check" CHECK ("deposit_address_pool"."purpose" in ('payment','deposit'));--> statement-breakpoint
ALTER TABLE "deposit_address_pool" ADD CONSTRAINT "deposit_address_pool_allocation" CHECK (("deposit_address_pool"."allocated_at" is null) = ("deposit_address_pool"."payment_id" is null and "deposit_address_pool"."deposit_address_id" is null));--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_owner_check" CHECK (case when "deposits"."kind" = 'address' then "deposits"."deposit_address_id" is not null and "deposits"."payment_id" is null
        else "deposits"."payment_id" is not null and "deposits"."deposit_address_id" is null end);--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_status_check" CHECK ("deposits"."status" in ('pending','credited','orphaned','ignored'));--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_kind_check" CHECK ("deposits"."kind" in ('payment','wrong_network','address'));
--> statement-breakpoint
-- The deposit range's counters start at 2^30 (lib/kernel/chain-ids.ts DEPOSIT_INDEX_START) in both modes.
INSERT INTO "deposit_index_counters" ("mode", "family", "purpose", "next_index")
SELECT m, f, 'deposit', 1073741824 FROM unnest(array['sandbox','live']) m, unnest(array['evm','tron','solana']) f;
--> statement-breakpoint
-- A key holding every resource scope there was (a full-access key) keeps full access: it gets the deposits'
-- scopes too. A restricted key does not (docs/API.md#scopes).
UPDATE "api_keys" SET "scopes" = "scopes" || array['deposits:read','deposits:write']
 WHERE "scopes" @> array['payments:read','payments:write','payment_links:read','payment_links:write',
   'balances:read','balances:write','payouts:read','payouts:write','refunds:read','refunds:write',
   'customers:read','customers:write','webhooks:read','webhooks:write','events:read','events:write']
   AND NOT "scopes" @> array['deposits:read'];
