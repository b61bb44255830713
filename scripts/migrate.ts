// `npm run migrate`: applies migrations to DATABASE_URL (or the embedded database) and exits.
import { config } from "@/lib/config/env";
import { bootstrapDatabase } from "@/lib/db/bootstrap";

const database = await bootstrapDatabase({ dataDir: config().dataDir });
console.log("migrations applied");
await database.stop();
process.exit(0);
