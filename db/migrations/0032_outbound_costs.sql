CREATE TABLE "outbound_costs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"outbound_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"purpose" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text,
	"merchant_id" text,
	"fee_native" numeric(78, 0) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_costs_fee_positive" CHECK ("outbound_costs"."fee_native" > 0),
	CONSTRAINT "outbound_costs_subject_check" CHECK ("outbound_costs"."subject_type" in ('payment','payout','refund','installation'))
);
--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD COLUMN "fee_usage" jsonb;--> statement-breakpoint
ALTER TABLE "outbound_costs" ADD CONSTRAINT "outbound_costs_outbound_id_outbound_transactions_id_fk" FOREIGN KEY ("outbound_id") REFERENCES "public"."outbound_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbound_costs_subject_idx" ON "outbound_costs" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "outbound_costs_time_idx" ON "outbound_costs" USING btree ("mode","created_at");--> statement-breakpoint
CREATE INDEX "outbound_costs_outbound_idx" ON "outbound_costs" USING btree ("outbound_id");