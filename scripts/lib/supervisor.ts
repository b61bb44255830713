import { execFileSync, fork, type ChildProcess } from "node:child_process";
import type { ProcessState } from "@/lib/platform/health/process-status";
import { backoffDelay } from "@/lib/kernel/backoff";
import { entryPoint } from "./entry-bundles";

export interface ReadyMessage {
  type: "ready";
  url?: string;
  chains?: {
    chain: string;
    chainId: number | null;
    rpcUrl: string;
    token: string;
    decimals: number;
    emulated: boolean;
  }[];
}

/** A process that never came up is reported after this many tries; one that has been up is restarted forever. */
const START_ATTEMPTS = 5;
/** The longest wait between restarts. */
const MAX_BACKOFF_MS = 30_000;
/** A life this long resets the backoff. */
const STABLE_AFTER_MS = 30_000;

/**
 * Runs a script as a child process (node --import tsx, or its bundle under `npm test`: entry-bundles.ts; with an
 * IPC channel so the child notices if we die) and restarts it with capped backoff if it exits unexpectedly: a
 * process that was up is never given up on (money must not stop silently; every restart is logged and its state
 * reported through `onState`), one that never came up fails `ready` after 5 tries. stop() ends it: SIGTERM, then
 * SIGKILL.
 */
export class SupervisedProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  private wasReady = false;
  private restarts = 0;
  private status: ProcessState = { state: "starting", since: new Date().toISOString(), restarts: 0, lastExit: null };
  private readyResolve!: (msg: ReadyMessage) => void;
  private readyReject!: (err: Error) => void;
  readonly ready: Promise<ReadyMessage>;

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onState: (name: string, state: ProcessState) => void = () => {},
    /** Half the first restart's wait (which doubles from there up to 30 s); tests shorten it. */
    private readonly baseDelayMs = 500,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.ready.catch(() => {}); // the caller awaits it; a failure after it resolved is reported, not thrown
    this.spawn();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get state(): ProcessState {
    return this.status;
  }

  private setState(state: ProcessState["state"], lastExit = this.status.lastExit) {
    this.status = { state, since: new Date().toISOString(), restarts: this.restarts, lastExit };
    this.onState(this.name, this.status);
  }

  private spawn() {
    const entry = entryPoint(this.script);
    const child = fork(entry.file, [], {
      execArgv: entry.execArgv,
      env: this.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child = child;
    const startedAt = Date.now();
    child.on("message", (msg: ReadyMessage) => {
      if (msg?.type !== "ready") return;
      this.wasReady = true;
      this.setState("up");
      this.readyResolve(msg);
    });
    child.on("exit", (code, signal) => {
      if (this.stopping) return;
      const exit = signal ?? `code ${code}`;
      if (Date.now() - startedAt > STABLE_AFTER_MS) this.restarts = 0;
      this.restarts += 1;
      if (!this.wasReady && this.restarts >= START_ATTEMPTS) {
        this.setState("failed", exit);
        this.readyReject(new Error(`${this.name} exited (${exit}) ${this.restarts} times in a row; giving up`));
        return;
      }
      // Restart n waits base × 2^n (`restarts` is already 1 here): the first wait is twice the base.
      const delay = backoffDelay(this.restarts + 1, { baseMs: this.baseDelayMs, maxMs: MAX_BACKOFF_MS });
      this.setState("restarting", exit);
      console.error(`[start] ${this.name} exited (${exit}); restarting in ${delay} ms (restart ${this.restarts})`);
      setTimeout(() => !this.stopping && this.spawn(), delay).unref();
    });
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    this.setState("stopped");
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    // Its own children (the chains process's anvils) must not outlive it: those it has now are killed with it if
    // it has to be, and any still running once it exited (a stop cut short) are killed then.
    const below = treeOf(child.pid!).slice(1);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => killAll(treeOf(child.pid!)), timeoutMs);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
    killAll(strays(below, child.pid!));
  }
}

/**
 * Those of `pids` still running as orphans (reparented to init) or under one another or `parent`: a pid that exited
 * and was reused by an unrelated process has another parent and is left alone.
 */
function strays(pids: number[], parent: number): number[] {
  if (!pids.length) return [];
  const ours = new Set([1, parent, ...pids]);
  return psTable()
    .filter(([p, ppid]) => pids.includes(p) && ours.has(ppid))
    .map(([p]) => p);
}

/** A process and every process below it, found with `ps` (the process alone where there is no ps). */
function treeOf(pid: number): number[] {
  const table = psTable();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [p, parent] of table) if (parent === tree[i]) tree.push(p);
  return tree;
}

/** Every process's [pid, ppid], from `ps`; empty where there is no ps. */
function psTable(): [number, number][] {
  try {
    return execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  } catch {
    return [];
  }
}

/** SIGKILLs each (a pid already gone is skipped). */
function killAll(pids: number[]): void {
  for (const p of pids) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}
