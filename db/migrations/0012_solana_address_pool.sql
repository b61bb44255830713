CREATE TABLE "solana_address_pool" (
	"mode" text NOT NULL,
	"derivation_index" bigint NOT NULL,
	"address" text NOT NULL,
	"payment_id" text,
	"allocated_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "solana_address_pool_mode_derivation_index_pk" PRIMARY KEY("mode","derivation_index"),
	CONSTRAINT "solana_address_pool_allocation" CHECK (("solana_address_pool"."payment_id" is null) = ("solana_address_pool"."allocated_at" is null))
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_address_with_chain";--> statement-breakpoint
CREATE UNIQUE INDEX "solana_address_pool_address_key" ON "solana_address_pool" USING btree ("mode","address");--> statement-breakpoint
CREATE INDEX "solana_address_pool_free_idx" ON "solana_address_pool" USING btree ("mode","derivation_index") WHERE "solana_address_pool"."allocated_at" is null;--> statement-breakpoint
CREATE INDEX "payments_waiting_for_address_idx" ON "payments" USING btree ("mode","chain","created_at") WHERE "payments"."status" = 'intent_created';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_address_with_chain" CHECK ("payments"."status" = 'intent_created' or ("payments"."chain" is null) = ("payments"."deposit_address" is null));