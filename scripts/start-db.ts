// Internal to `npm start`: owns the embedded PostgreSQL so the parent can stop it last, after web and
// worker. Reports the URL over IPC; stops the server on SIGTERM or when the parent goes away. Watches the
// server: one that stops answering (killed, crashed) makes this process exit, and the parent's supervisor
// starts it, and so the server, again.
import fs from "node:fs";
import path from "node:path";
import { canConnect, startEmbeddedDatabase } from "@/lib/platform/db/embedded";
import { onShutdown } from "./lib/shutdown";
import { startupConfig } from "./lib/startup-config";

/** Seconds without a TCP answer before the server counts as gone (a busy server still accepts). */
const MISSED_CHECKS = 3;

const { dataDir } = startupConfig();
fs.mkdirSync(dataDir, { recursive: true });
const logFile = fs.createWriteStream(path.join(dataDir, "postgres.log"), { flags: "a" });
const database = await startEmbeddedDatabase(dataDir, (line) => logFile.write(`${line}\n`));
process.send?.({ type: "ready", url: database.url, owned: database.owned });
onShutdown(async () => {
  clearInterval(watch);
  await database.stop();
  logFile.end();
});

let missed = 0;
const watch = setInterval(async () => {
  missed = (await canConnect(database.port!)) ? 0 : missed + 1;
  if (missed < MISSED_CHECKS) return;
  clearInterval(watch);
  console.error(`[database] PostgreSQL stopped answering on port ${database.port}; starting it again`);
  // A crashed server's stop fails fast; a hung one gets a few seconds before this process goes anyway.
  await Promise.race([database.stop().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
  logFile.end();
  process.exit(1);
}, 1_000);
