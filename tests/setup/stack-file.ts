import fs from "node:fs";
import path from "node:path";
import type { StackContext } from "./test-stack";

/** Where `npm run test:stack` says what it runs (TEST_STACK_FILE overrides: two stacks on one tree). */
export const stackFile = (root: string) => process.env.TEST_STACK_FILE ?? path.join(root, ".data", "test-stack.json");

export function writeStackFile(root: string, context: StackContext): void {
  fs.mkdirSync(path.dirname(stackFile(root)), { recursive: true });
  fs.writeFileSync(stackFile(root), JSON.stringify({ ...context, pid: process.pid }), { mode: 0o600 });
}

/** The running stack's context; throws, saying how to start one, when none is running. */
export function readStackFile(root: string): StackContext {
  const file = stackFile(root);
  let stack: StackContext & { pid: number };
  try {
    stack = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    throw new Error(
      `No test stack is running (no ${file}): start one with \`npm run test:stack\` in another terminal.`,
    );
  }
  try {
    process.kill(stack.pid, 0);
  } catch {
    throw new Error(
      `The test stack of ${file} (pid ${stack.pid}) has stopped: start it again with \`npm run test:stack\`.`,
    );
  }
  return stack;
}
