ALTER TABLE "refunds" ADD COLUMN "claim_code_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "claim_code_hash" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "claim_code_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A refund's claim link is a secret for refunders only (docs/REFUNDS.md): events written before this carried it
-- in data.object.claim_url (only while the refund waited for the payer). Their bodies now carry claim_pending
-- instead, as new ones do, edited as text so every other byte stays as it was; deliveries still to be sent send
-- the scrubbed body.
update events
   set body = regexp_replace(body, '"claim_url":"[^"]*"', '"claim_url":null,"claim_pending":true')
 where type like 'refund.%' and body like '%"claim_url":"%';
