import { config } from "@/lib/platform/config/env";
import { getPool } from "@/lib/platform/db/client";
import { type ProcessState, readProcessStatus } from "./process-status";

/** A database probe is reused this long, so health checks (load balancers poll often) cost no query each. */
const PROBE_EVERY_MS = 2_000;
const PROBE_TIMEOUT_MS = 1_000;

let last: { at: number; up: boolean } | null = null;
let running: Promise<boolean> | null = null;

async function probeDatabase(): Promise<boolean> {
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref());
  const query = getPool()
    .query("select 1")
    .then(() => true)
    .catch(() => false);
  return Promise.race([query, timeout]);
}

/** Whether the database answered within the last couple of seconds (one probe at a time). */
async function databaseUp(): Promise<boolean> {
  if (last && Date.now() - last.at < PROBE_EVERY_MS) return last.up;
  running ??= probeDatabase().then((up) => {
    last = { at: Date.now(), up };
    running = null;
    return up;
  });
  return running;
}

export interface ServiceHealth {
  ok: boolean;
  database: "up" | "down";
  /** Under `npm start`: each supervised process (database, web, worker, sandbox chains) and its state. */
  processes: Record<
    string,
    { state: ProcessState["state"]; since: string; restarts: number; last_exit: string | null }
  >;
}

/**
 * The service's health as this web process sees it: the database answering, and under `npm start` every
 * process its supervisor runs (so a worker that keeps restarting, or a database being started again, shows).
 */
export async function serviceHealth(): Promise<ServiceHealth> {
  const database = (await databaseUp()) ? "up" : "down";
  const states = readProcessStatus(config().dataDir) ?? {};
  const processes = Object.fromEntries(
    Object.entries(states).map(([name, s]) => [
      name,
      { state: s.state, since: s.since, restarts: s.restarts, last_exit: s.lastExit },
    ]),
  );
  const ok = database === "up" && Object.values(states).every((s) => s.state === "up");
  return { ok, database, processes };
}
