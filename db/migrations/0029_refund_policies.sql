CREATE TABLE "refund_policies" (
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"overpaid_above_units" bigint,
	"refund_late_payments" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_policies_merchant_id_mode_pk" PRIMARY KEY("merchant_id","mode"),
	CONSTRAINT "refund_policies_threshold_nonnegative" CHECK ("refund_policies"."overpaid_above_units" is null or "refund_policies"."overpaid_above_units" >= 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "created_by_policy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refund_policies" ADD CONSTRAINT "refund_policies_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;