// Worker-only entry point (scale-out): `DATABASE_URL=… npm run start:worker`. Any number may run.
import { config } from "@/lib/config/env";
import { bootstrapDatabase } from "@/lib/db/bootstrap";
import { closeDb, getPool } from "@/lib/db/client";
import { startWorker } from "@/lib/jobs/worker";
import { onShutdown } from "./lib/shutdown";

const cfg = config();
const database = await bootstrapDatabase({ dataDir: cfg.dataDir });
const runner = await startWorker(getPool());
console.log("[worker] running jobs");
process.send?.({ type: "ready" });

onShutdown(async () => {
  await runner.stop();
  await closeDb();
  await database.stop();
});
