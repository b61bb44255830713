CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"chain" text,
	"amount_units" bigint NOT NULL,
	"deposit_address" text,
	"derivation_index" bigint,
	"description" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tx_hash" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"payment_link_id" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount_units" > 0),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('intent_created','awaiting_payment','pending','confirming','confirmed','expired','failed')),
	CONSTRAINT "payments_chain_check" CHECK ("payments"."chain" is null or "payments"."chain" in ('eth','bnb','polygon','tron','solana')),
	CONSTRAINT "payments_address_with_chain" CHECK (("payments"."chain" is null) = ("payments"."deposit_address" is null))
);
--> statement-breakpoint
CREATE TABLE "wallet_seeds" (
	"mode" text PRIMARY KEY NOT NULL,
	"encrypted_mnemonic" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_owner_idx" ON "payments" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_deposit_address_key" ON "payments" USING btree ("mode","deposit_address") WHERE "payments"."deposit_address" is not null;