import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const registry = globalThis as unknown as { __usdtMasterKey?: Buffer };

/**
 * The key that encrypts secrets at rest. `MASTER_KEY` (32 bytes, base64 or hex) when set; otherwise, for
 * the embedded default only, a key generated once into DATA_DIR/master.key (mode 0600). With an external
 * DATABASE_URL every instance must share one key, so it must then come from the environment.
 */
export function masterKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  if (registry.__usdtMasterKey) return registry.__usdtMasterKey;
  const raw = env.MASTER_KEY;
  let key: Buffer;
  if (raw) {
    key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
    if (key.length !== 32)
      throw new Error("MASTER_KEY must be 32 bytes, base64 or hex encoded (openssl rand -base64 32)");
  } else if (env.DATABASE_URL && !env.EMBEDDED_DATABASE) {
    throw new Error(
      "MASTER_KEY is required when DATABASE_URL is set: every instance must share it (openssl rand -base64 32)",
    );
  } else {
    key = readOrCreateKeyFile(path.join(path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || ".data"), "master.key"));
  }
  registry.__usdtMasterKey = key;
  return key;
}

function readOrCreateKeyFile(file: string): Buffer {
  try {
    return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const key = randomBytes(32);
    try {
      fs.writeFileSync(file, key.toString("base64"), { mode: 0o600, flag: "wx" });
      return key;
    } catch {
      // Another process created it first: use theirs.
      return Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
    }
  }
}
