CREATE TABLE "deposit_address_pool" (
	"mode" text NOT NULL,
	"family" text NOT NULL,
	"derivation_index" bigint NOT NULL,
	"address" text NOT NULL,
	"payment_id" text,
	"allocated_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_address_pool_mode_family_derivation_index_pk" PRIMARY KEY("mode","family","derivation_index"),
	CONSTRAINT "deposit_address_pool_allocation" CHECK (("deposit_address_pool"."payment_id" is null) = ("deposit_address_pool"."allocated_at" is null))
);
--> statement-breakpoint
CREATE TABLE "deposit_index_counters" (
	"mode" text NOT NULL,
	"family" text NOT NULL,
	"next_index" bigint NOT NULL,
	CONSTRAINT "deposit_index_counters_mode_family_pk" PRIMARY KEY("mode","family"),
	CONSTRAINT "deposit_index_counters_nonnegative" CHECK ("deposit_index_counters"."next_index" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_address_pool_address_key" ON "deposit_address_pool" USING btree ("mode","family","address");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_address_pool_payment_key" ON "deposit_address_pool" USING btree ("payment_id") WHERE "deposit_address_pool"."payment_id" is not null;--> statement-breakpoint
CREATE INDEX "deposit_address_pool_free_idx" ON "deposit_address_pool" USING btree ("mode","family","derivation_index") WHERE "deposit_address_pool"."allocated_at" is null;--> statement-breakpoint
-- Each pool's counter starts where its sequence stopped (and past any index a payment or the Solana pool
-- already holds), so no index is ever derived twice.
INSERT INTO "deposit_index_counters" ("mode", "family", "next_index")
SELECT s.mode, s.family, greatest(
    s.next_index,
    coalesce((SELECT max(p.derivation_index) + 1 FROM "payments" p WHERE p.mode = s.mode
      AND (CASE WHEN p.chain IN ('eth', 'bnb', 'polygon') THEN 'evm' ELSE p.chain END) = s.family), 0),
    coalesce((SELECT max(sp.derivation_index) + 1 FROM "solana_address_pool" sp WHERE sp.mode = s.mode AND s.family = 'solana'), 0))
FROM (
  SELECT 'sandbox' AS mode, 'evm' AS family, (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_sandbox_evm") AS next_index
  UNION ALL SELECT 'sandbox', 'tron', (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_sandbox_tron")
  UNION ALL SELECT 'sandbox', 'solana', (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_sandbox_solana")
  UNION ALL SELECT 'live', 'evm', (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_live_evm")
  UNION ALL SELECT 'live', 'tron', (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_live_tron")
  UNION ALL SELECT 'live', 'solana', (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "deposit_index_live_solana")
) s;
--> statement-breakpoint
INSERT INTO "deposit_address_pool" ("mode", "family", "derivation_index", "address", "payment_id", "allocated_at", "created_at")
SELECT "mode", 'solana', "derivation_index", "address", "payment_id", "allocated_at", "created_at" FROM "solana_address_pool";
