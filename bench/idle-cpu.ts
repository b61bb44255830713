// `npm run bench:idle`: what an idle stack costs the CPU, where the test phases spend most of their time (a worker
// waits for blocks; two cores run a dozen of them at once). The test stack (database, the five sandbox chains,
// the address pool keeper), then one worker with every role on all five chains and nothing to do, then a second
// worker beside it, then one worker per role alone: CPU per wall second (ms/s; 1000 = a whole core) of the machine and
// of each worker. Env: BENCH_SECONDS (each window, default 15).
import path from "node:path";
import { spawnWorker } from "@/scripts/lib/spawn-worker";
import { startTestStack } from "@/tests/setup/test-stack";
import { machineTicks, processTicks } from "./lib/measure";

const root = path.resolve(import.meta.dirname, "..");
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU per wall second (ms/s) over one window, of the machine and of each pid. */
async function window(pids: number[]): Promise<{ machine: number; processes: number[] }> {
  const started = Date.now();
  const machine = machineTicks();
  const each = pids.map(processTicks);
  await sleep(SECONDS * 1000);
  const seconds = (Date.now() - started) / 1000;
  const perSecond = (ticks: number) => Math.round((ticks * 10) / seconds); // a tick is 10 ms
  return {
    machine: perSecond(machineTicks() - machine),
    processes: pids.map((pid, i) => perSecond(processTicks(pid) - each[i]!)),
  };
}

const stack = await startTestStack(root);
const env = {
  DATABASE_URL: stack.context.databaseUrl,
  MASTER_KEY: stack.context.masterKey,
  REDIS_KEY_PREFIX: stack.context.redisKeyPrefix,
  LOG_LEVEL: "error",
};
const rows: string[][] = [["what runs", "machine ms/s", "each worker ms/s"]];
try {
  await sleep(3000); // the pools' first refill settles
  rows.push(["the stack alone", String((await window([])).machine), "-"]);
  const first = await spawnWorker(root, env);
  await sleep(5000); // watchers caught up with the chains' heads, leaders elected
  const one = await window([first.pid]);
  rows.push(["+ one worker (all roles, 5 chains)", String(one.machine), one.processes.join(", ")]);
  const second = await spawnWorker(root, env);
  await sleep(5000);
  const two = await window([first.pid, second.pid]);
  rows.push(["+ a second worker (standing by)", String(two.machine), two.processes.join(", ")]);
  await Promise.all([first.stop(), second.stop()]);
  // Where a worker's idle CPU goes: one worker at a time with one role (WORKER_ROLES).
  for (const role of ["watchers", "outbound", "jobs"]) {
    const only = await spawnWorker(root, { ...env, WORKER_ROLES: role });
    await sleep(5000);
    const alone = await window([only.pid]);
    rows.push([`one worker, ${role} only`, String(alone.machine), alone.processes.join(", ")]);
    await only.stop();
  }
} finally {
  await stack.stop();
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join("  "));
process.exit(0);
