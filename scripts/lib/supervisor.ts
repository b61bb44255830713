import { fork, type ChildProcess } from "node:child_process";

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

/**
 * Runs a script as a child process (node --import tsx, with an IPC channel so the child notices if we
 * die) and restarts it with backoff if it exits unexpectedly. stop() ends it: SIGTERM, then SIGKILL.
 */
export class SupervisedProcess {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts = 0;
  private readyResolve!: (msg: ReadyMessage) => void;
  private readyReject!: (err: Error) => void;
  readonly ready: Promise<ReadyMessage>;

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    this.spawn();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  private spawn() {
    const child = fork(this.script, [], {
      execArgv: ["--import", "tsx"],
      env: this.env,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child = child;
    const startedAt = Date.now();
    child.on("message", (msg: ReadyMessage) => {
      if (msg?.type === "ready") this.readyResolve(msg);
    });
    child.on("exit", (code, signal) => {
      if (this.stopping) return;
      // A child that keeps dying right after start is reported instead of restarted forever.
      if (Date.now() - startedAt > 30_000) this.restarts = 0;
      this.restarts += 1;
      if (this.restarts > 5) {
        this.readyReject(
          new Error(`${this.name} exited (${signal ?? code}) ${this.restarts} times in a row; giving up`),
        );
        return;
      }
      const delay = Math.min(30_000, 500 * 2 ** this.restarts);
      console.error(`[start] ${this.name} exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
      setTimeout(() => !this.stopping && this.spawn(), delay).unref();
    });
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  }
}
