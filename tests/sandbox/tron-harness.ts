import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startTronSandbox, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";

type Options = Omit<Parameters<typeof startTronSandbox>[0], "dataDir">;

/**
 * A sandbox Tron chain for this test file, in a data directory of its own (0.25 s blocks unless asked otherwise):
 * started before the file's tests, stopped and removed after them. Call it at the file's top level.
 */
export function tronSandboxForFile(opts: Options = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-tron-"));
  let sandbox: Awaited<ReturnType<typeof startTronSandbox>> | undefined;
  const start = () => startTronSandbox({ blockTime: 0.25, ...opts, dataDir });
  beforeAll(async () => {
    sandbox = await start();
  });
  afterAll(async () => {
    await sandbox?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get info(): TronSandboxInfo {
      if (!sandbox) throw new Error("the sandbox Tron chain starts before the file's tests");
      return sandbox.info;
    },
    /** Stops the chain and starts it again on the same data directory. */
    async restart(): Promise<TronSandboxInfo> {
      await sandbox?.stop();
      sandbox = await start();
      return sandbox.info;
    },
  };
}

export const postJson = async (url: string, body: unknown): Promise<any> =>
  (
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  ).json();

/** gettransactioninfobyid once the transaction is in a block (15 s at most). */
export async function minedInfo(info: TronSandboxInfo, txID: string): Promise<any> {
  for (let i = 0; i < 150; i++) {
    const txInfo = await postJson(`${info.fullHost}/wallet/gettransactioninfobyid`, { value: txID });
    if (txInfo.blockNumber !== undefined) return txInfo;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${txID} not mined`);
}
