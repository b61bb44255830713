CREATE TABLE "reconcile_results" (
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"checked_at" timestamp (3) with time zone NOT NULL,
	"shortfall_units" numeric(78, 0) NOT NULL,
	"unmatched_units" numeric(78, 0) NOT NULL,
	"gas_short" integer NOT NULL,
	"alerts" jsonb NOT NULL,
	CONSTRAINT "reconcile_results_mode_chain_pk" PRIMARY KEY("mode","chain")
);
--> statement-breakpoint
CREATE INDEX "payouts_updated_idx" ON "payouts" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_undelivered_idx" ON "webhook_deliveries" USING btree ("mode","status","updated_at") WHERE "webhook_deliveries"."status" <> 'succeeded';