import { afterAll, inject } from "vitest";
import { closeDb } from "@/lib/platform/db/client";

// Test files call domain functions in-process against the run's database, as the web/worker/CLI do.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.REDIS_KEY_PREFIX = inject("redisKeyPrefix");
process.env.MASTER_KEY = inject("masterKey");
process.env.LOG_LEVEL ??= "warn";

afterAll(async () => {
  await closeDb();
});
