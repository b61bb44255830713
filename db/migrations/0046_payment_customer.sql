-- Payments may name a customer (docs/API.md#customers). The foreign key is added NOT VALID, then validated: the
-- column is new and empty, and validating takes a lock that lets payments be written meanwhile.
ALTER TABLE "payments" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "payments" VALIDATE CONSTRAINT "payments_customer_id_customers_id_fk";--> statement-breakpoint
CREATE INDEX "payments_customer_idx" ON "payments" USING btree ("customer_id","created_at","id") WHERE "payments"."customer_id" is not null;
