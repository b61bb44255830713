-- Customers (docs/API.md#customers). Their reference is unique per merchant and mode among those not deleted.
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"name" text,
	"email" text,
	"reference" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_reference_key" ON "customers" USING btree ("merchant_id","mode","reference") WHERE "customers"."deleted_at" is null and "customers"."reference" is not null;--> statement-breakpoint
CREATE INDEX "customers_owner_idx" ON "customers" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "customers_email_lower_idx" ON "customers" USING btree ("merchant_id","mode",lower("email"));--> statement-breakpoint
-- A key holding every resource scope there was (a full-access key, as the defaults make) keeps full access:
-- it gets the customers' scopes too. A restricted key does not (docs/API.md#scopes).
UPDATE "api_keys" SET "scopes" = "scopes" || array['customers:read','customers:write']
 WHERE "scopes" @> array['payments:read','payments:write','payment_links:read','payment_links:write',
   'balances:read','balances:write','payouts:read','payouts:write','refunds:read','refunds:write',
   'webhooks:read','webhooks:write','events:read','events:write']
   AND NOT "scopes" @> array['customers:read'];