CREATE TABLE "job_runners" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"process" text NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_runners_heartbeat_idx" ON "job_runners" USING btree ("heartbeat_at");