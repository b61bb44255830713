import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The anvil binary shipped in the npm platform package (spawned directly; no download at install). */
export function anvilBinary(): string {
  return path.join(path.dirname(require.resolve("@foundry-rs/anvil-linux-amd64/package.json")), "bin", "anvil");
}

export interface AnvilOptions {
  chainId: number;
  port: number;
  /** Seconds per block; fractions allowed. Omitted: a block per transaction (anvil's automine). */
  blockTime?: number;
  /** Persist chain state here (loaded at start, dumped every `stateInterval` seconds and on exit). */
  stateFile?: string;
  stateInterval?: number;
  /**
   * The EVM rules; default "prague", pinned rather than anvil's moving "latest" so a new anvil cannot change
   * them under the sandbox (Prague brings EIP-7702).
   */
  hardfork?: string;
  /** Further anvil flags (e.g. a larger --gas-limit for benchmarks). */
  extraArgs?: string[];
}

export interface RunningAnvil {
  rpcUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts one anvil on loopback and resolves once its JSON-RPC answers with the expected chain id. */
export async function startAnvil(opts: AnvilOptions): Promise<RunningAnvil> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(opts.port),
    "--chain-id",
    String(opts.chainId),
    "--hardfork",
    opts.hardfork ?? "prague",
    "--silent",
    ...(opts.extraArgs ?? []),
  ];
  if (opts.blockTime !== undefined) args.push("--block-time", String(opts.blockTime));
  if (opts.stateFile) args.push("--state", opts.stateFile, "--state-interval", String(opts.stateInterval ?? 1));
  const child = spawn(anvilBinary(), args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited during start (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      const { result } = (await res.json()) as { result?: string };
      if (result && Number(result) === opts.chainId) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`anvil did not answer on ${rpcUrl} within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    rpcUrl,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // SIGTERM lets anvil dump its state file before exiting.
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
