import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type AppConfig, config } from "@/lib/config/env";

const registry = globalThis as unknown as { __usdtMasterKey?: Buffer };

/**
 * The key that encrypts secrets at rest. `MASTER_KEY` (32 bytes, base64 or hex; its format is checked with
 * the rest of the configuration) when set; otherwise, for the embedded default only, a key generated once
 * into DATA_DIR/master.key (mode 0600). With an external DATABASE_URL every instance must share one key,
 * so it must then come from the environment.
 */
export function masterKey(cfg: AppConfig = config()): Buffer {
  if (registry.__usdtMasterKey) return registry.__usdtMasterKey;
  let key: Buffer;
  if (cfg.masterKey) {
    key = cfg.masterKey;
  } else if (cfg.databaseUrl && !cfg.embeddedDatabase) {
    throw new Error(
      "MASTER_KEY is required when DATABASE_URL is set: every instance must share it (openssl rand -base64 32)",
    );
  } else {
    key = readOrCreateKeyFile(path.join(cfg.dataDir, "master.key"));
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
