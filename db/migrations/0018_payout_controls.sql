CREATE TABLE "payout_denylist" (
	"id" text PRIMARY KEY NOT NULL,
	"chain" text,
	"address" text NOT NULL,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_policies" (
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"review_above_units" bigint,
	"review_new_destinations" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_policies_merchant_id_mode_pk" PRIMARY KEY("merchant_id","mode")
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "outbound_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "approved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "failure_code" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "failure_message" text;--> statement-breakpoint
ALTER TABLE "payout_policies" ADD CONSTRAINT "payout_policies_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payout_denylist_entry_key" ON "payout_denylist" USING btree (coalesce("chain", '*'),"address");--> statement-breakpoint
CREATE INDEX "payouts_open_idx" ON "payouts" USING btree ("mode","chain","created_at") WHERE "payouts"."status" in ('pending','processing');