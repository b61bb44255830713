CREATE TABLE "sweep_batch_members" (
	"outbound_id" text NOT NULL,
	"mode" text NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"raw_amount" numeric(78, 0) NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sweep_batch_members_outbound_id_address_pk" PRIMARY KEY("outbound_id","address"),
	CONSTRAINT "sweep_batch_members_amount_positive" CHECK ("sweep_batch_members"."raw_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "outbound_transactions" DROP CONSTRAINT "outbound_purpose_check";--> statement-breakpoint
ALTER TABLE "sweep_batch_members" ADD CONSTRAINT "sweep_batch_members_outbound_id_outbound_transactions_id_fk" FOREIGN KEY ("outbound_id") REFERENCES "public"."outbound_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_batch_one_open_member" ON "sweep_batch_members" USING btree ("mode","chain","address") WHERE "sweep_batch_members"."open";--> statement-breakpoint
CREATE INDEX "sweep_batch_members_address_idx" ON "sweep_batch_members" USING btree ("mode","chain","address");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_one_deploy" ON "outbound_transactions" USING btree ("mode","chain","cause_id") WHERE "outbound_transactions"."purpose" = 'deploy' and "outbound_transactions"."status" not in ('reverted','expired');--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD CONSTRAINT "outbound_purpose_check" CHECK ("outbound_transactions"."purpose" in ('sweep','sweep_batch','gas_topup','payout','cancel','account_close','deploy'));