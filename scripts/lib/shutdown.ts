/**
 * One place that turns SIGINT/SIGTERM (and, for processes started by `npm start`, the loss of the IPC
 * channel to the parent, which happens even if the parent is SIGKILLed) into an orderly stop.
 */
export function onShutdown(stop: () => Promise<void>, timeoutMs = 15_000): void {
  let stopping = false;
  const run = (reason: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => {
      console.error(`[shutdown] still stopping after ${timeoutMs} ms (${reason}); exiting`);
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        console.error(`[shutdown] ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      });
  };
  process.on("SIGINT", () => run("SIGINT"));
  process.on("SIGTERM", () => run("SIGTERM"));
  if (process.send) process.on("disconnect", () => run("parent gone"));
}
