import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort } from "@/lib/platform/db/embedded";
import { entryPoint } from "./entry-bundles";
import { waitForReady } from "./wait-for-ready";

export interface SpawnedWebServer {
  url: string;
  pid: number;
  /** SIGTERM and wait (an orderly stop). */
  stop(): Promise<void>;
  /** SIGKILL and wait (a crash). */
  kill(): Promise<void>;
}

/**
 * Starts the real web entry point (scripts/start-web.ts: custom server + Next build) as a child process; used by the
 * tests and the benchmark.
 */
export async function spawnWebServer(root: string, env: Record<string, string>): Promise<SpawnedWebServer> {
  const port = await freePort();
  // WEB_EXEC_ARGV adds node flags, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile under load.
  const entry = entryPoint(path.join(root, "scripts/start-web.ts"));
  const child: ChildProcess = fork(entry.file, [], {
    cwd: root,
    execArgv: [...entry.execArgv, ...(process.env.WEB_EXEC_ARGV ? process.env.WEB_EXEC_ARGV.split(" ") : [])],
    env: {
      ...process.env,
      NODE_ENV: "production",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      // A test may put the instance behind an https public URL (the dashboard's Secure cookies).
      PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  // A hang detector, not a budget: ~1 s on a quiet machine, >30 s seen with two CPU-bound loads beside it.
  await waitForReady(child, "web server", 90_000);
  const ended = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => ended("SIGTERM"),
    kill: () => ended("SIGKILL"),
  };
}
