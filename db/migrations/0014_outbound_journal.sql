CREATE TABLE "outbound_candidates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbound_id" text NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text NOT NULL,
	"signed_tx" text NOT NULL,
	"nonce" bigint,
	"max_fee_per_gas" numeric(78, 0),
	"max_priority_fee_per_gas" numeric(78, 0),
	"valid_until" bigint,
	"broadcast_head" bigint,
	"block_number" bigint,
	"block_hash" text,
	"fee_native" numeric(78, 0),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"broadcast_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_candidates_status_check" CHECK ("outbound_candidates"."status" in ('signed','broadcast','mined','confirmed','replaced','reverted','expired'))
);
--> statement-breakpoint
CREATE TABLE "outbound_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text NOT NULL,
	"signer" jsonb NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"asset" text NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"cause_id" text,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"after_id" text,
	"nonce" bigint,
	"resigns" integer DEFAULT 0 NOT NULL,
	"tx_hash" text,
	"block_number" bigint,
	"block_hash" text,
	"confirmations" integer,
	"fee_native" numeric(78, 0),
	"failure" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	CONSTRAINT "outbound_amount_nonnegative" CHECK ("outbound_transactions"."raw_amount" >= 0),
	CONSTRAINT "outbound_status_check" CHECK ("outbound_transactions"."status" in ('intent','signed','broadcast','mined','confirmed','reverted','expired')),
	CONSTRAINT "outbound_purpose_check" CHECK ("outbound_transactions"."purpose" in ('sweep','gas_topup','payout','cancel','account_close'))
);
--> statement-breakpoint
CREATE TABLE "signer_nonces" (
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signer_nonces_mode_chain_address_pk" PRIMARY KEY("mode","chain","address"),
	CONSTRAINT "signer_nonces_nonnegative" CHECK ("signer_nonces"."next_nonce" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_roles" (
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"role" text NOT NULL,
	"address" text NOT NULL,
	"path" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_roles_mode_chain_role_pk" PRIMARY KEY("mode","chain","role")
);
--> statement-breakpoint
ALTER TABLE "outbound_candidates" ADD CONSTRAINT "outbound_candidates_outbound_id_outbound_transactions_id_fk" FOREIGN KEY ("outbound_id") REFERENCES "public"."outbound_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_candidates_hash_idx" ON "outbound_candidates" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "outbound_candidates_outbound_idx" ON "outbound_candidates" USING btree ("outbound_id");--> statement-breakpoint
CREATE INDEX "outbound_open_idx" ON "outbound_transactions" USING btree ("mode","chain","status") WHERE "outbound_transactions"."status" not in ('confirmed','reverted','expired');--> statement-breakpoint
CREATE INDEX "outbound_cause_idx" ON "outbound_transactions" USING btree ("cause_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_signer_nonce_idx" ON "outbound_transactions" USING btree ("mode","chain","from_address","nonce");