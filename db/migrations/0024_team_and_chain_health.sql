CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"used_by" text,
	"revoked_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_role_check" CHECK ("invitations"."role" in ('owner', 'admin', 'developer', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "head_number" bigint;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "head_seen_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "chain_cursors" ADD COLUMN "last_error_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_merchant_idx" ON "invitations" USING btree ("merchant_id","created_at");