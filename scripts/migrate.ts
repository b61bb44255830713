// `npm run migrate`: applies migrations to DATABASE_URL (or the embedded database) and exits.
import { bootstrapDatabase } from "./lib/bootstrap-database";
import { startupConfig } from "./lib/startup-config";

const database = await bootstrapDatabase({ dataDir: startupConfig().dataDir });
console.log("migrations applied");
await database.stop();
process.exit(0);
