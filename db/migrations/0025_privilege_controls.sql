DROP INDEX "sign_in_attempts_ip_idx";--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
ALTER TABLE "payout_policies" ADD COLUMN "allow_self_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "created_by_key_id" text;--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD COLUMN "kind" text DEFAULT 'password' NOT NULL;--> statement-breakpoint
UPDATE "sign_in_attempts" SET "client_key" = "ip" WHERE "client_key" IS NULL;--> statement-breakpoint
CREATE INDEX "sign_in_attempts_email_client_idx" ON "sign_in_attempts" USING btree ("email","client_key","created_at");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_client_idx" ON "sign_in_attempts" USING btree ("client_key","created_at");