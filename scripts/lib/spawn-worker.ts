import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { entryPoint } from "./entry-bundles";
import { waitForReady } from "./wait-for-ready";

export interface SpawnedWorker {
  pid: number;
  process: ChildProcess;
  /** SIGTERM and wait (an orderly stop). */
  stop(): Promise<void>;
  /** SIGKILL and wait (a crash). */
  kill(): Promise<void>;
  /** How it ended: the signal that stopped it, or its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts the real worker entry point (scripts/start-worker.ts) as a child process; for tests and benchmarks. */
export async function spawnWorker(root: string, env: Record<string, string>): Promise<SpawnedWorker> {
  const entry = entryPoint(path.join(root, "scripts/start-worker.ts"));
  const child = fork(entry.file, [], {
    cwd: root,
    execArgv: entry.execArgv,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  // Loading the chain libraries takes a worker seconds of CPU (entry-bundles.ts); the custody phase starts a dozen
  // at once on two cores, and 30 s was not always enough there.
  await waitForReady(child, "worker", 90_000);
  const ended = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return { pid: child.pid!, process: child, stop: () => ended("SIGTERM"), kill: () => ended("SIGKILL"), exited };
}
