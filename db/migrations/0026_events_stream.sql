ALTER TABLE "events" ADD COLUMN "stream_xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "stream_seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "events_stream_idx" ON "events" USING btree ("merchant_id","mode","stream_xid","stream_seq");