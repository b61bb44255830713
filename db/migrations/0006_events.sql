CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"mode" text NOT NULL,
	"type" text NOT NULL,
	"object_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_owner_idx" ON "events" USING btree ("merchant_id","mode","created_at","id");--> statement-breakpoint
CREATE INDEX "events_owner_type_idx" ON "events" USING btree ("merchant_id","mode","type","created_at","id");--> statement-breakpoint
CREATE INDEX "events_object_idx" ON "events" USING btree ("object_id","created_at");