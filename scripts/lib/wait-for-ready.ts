import type { ChildProcess } from "node:child_process";

/** Resolves when a child started over IPC reports `{type: "ready"}`; rejects if it exits first or takes too long. */
export function waitForReady(child: ChildProcess, what: string, timeoutMs = 30_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs / 1000} s`)), timeoutMs);
    child.on("message", (msg: { type?: string }) => {
      if (msg?.type === "ready") {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`${what} exited during start (${signal ?? `code ${code}`})`, { cause: signal ?? code })),
    );
  });
}
