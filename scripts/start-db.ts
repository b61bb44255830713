// Internal to `npm start`: owns the embedded PostgreSQL so the parent can stop it last, after web and
// worker. Reports the URL over IPC; stops the server on SIGTERM or when the parent goes away.
import fs from "node:fs";
import path from "node:path";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { onShutdown } from "./lib/shutdown";
import { startupConfig } from "./lib/startup-config";

const { dataDir } = startupConfig();
fs.mkdirSync(dataDir, { recursive: true });
const logFile = fs.createWriteStream(path.join(dataDir, "postgres.log"), { flags: "a" });
const database = await startEmbeddedDatabase(dataDir, (line) => logFile.write(`${line}\n`));
process.send?.({ type: "ready", url: database.url, owned: database.owned });
onShutdown(async () => {
  await database.stop();
  logFile.end();
});
