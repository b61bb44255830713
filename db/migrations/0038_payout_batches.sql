CREATE TABLE "payout_batch_members" (
	"outbound_id" text NOT NULL,
	"payout_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batch_members_outbound_id_payout_id_pk" PRIMARY KEY("outbound_id","payout_id")
);
--> statement-breakpoint
ALTER TABLE "outbound_transactions" DROP CONSTRAINT "outbound_purpose_check";--> statement-breakpoint
ALTER TABLE "payout_batch_members" ADD CONSTRAINT "payout_batch_members_outbound_id_outbound_transactions_id_fk" FOREIGN KEY ("outbound_id") REFERENCES "public"."outbound_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batch_members_payout_idx" ON "payout_batch_members" USING btree ("payout_id");--> statement-breakpoint
ALTER TABLE "outbound_transactions" ADD CONSTRAINT "outbound_purpose_check" CHECK ("outbound_transactions"."purpose" in ('sweep','sweep_batch','gas_topup','payout','payout_batch','refund','cancel','account_close','deploy','energy_delegate','energy_reclaim'));