import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type AppConfig, config } from "@/lib/platform/config/env";

const registry = globalThis as unknown as { __usdtMasterKey?: Buffer };

/**
 * The key that encrypts secrets at rest. `MASTER_KEY` (32 bytes, base64 or hex; its format is checked with
 * the rest of the configuration) when set; otherwise, for the embedded default only, a key generated once
 * into DATA_DIR/master.key (mode 0600). With an external DATABASE_URL every instance must share one key,
 * so it must then come from the environment. Only a valid key is ever cached.
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
    key = readOrCreateMasterKeyFile(path.join(cfg.dataDir, "master.key"));
  }
  registry.__usdtMasterKey = key;
  return key;
}

/**
 * The key in `file` (32 bytes, written in base64), created if absent. Creation is atomic: the key is written and
 * fsynced to a private temporary file that is then hard-linked to `file`, so a reader never sees a partial
 * file, and of processes starting together exactly one link succeeds; the others (EEXIST) read the
 * winner's key. A present file that is not a valid key is an error, never silently replaced: secrets
 * already encrypted under the lost key would otherwise become unreadable without notice.
 */
export function readOrCreateMasterKeyFile(file: string): Buffer {
  const existing = readKeyFile(file);
  if (existing) return existing;
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = fs.openSync(tmp, "wx", 0o600);
  try {
    fs.writeSync(fd, key.toString("base64"));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another process created it first: use theirs.
    return readKeyFile(file)!;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  syncDirectory(dir);
  return key;
}

/** The key in `file`, undefined when there is no file; throws, naming the file, when it is not a key. */
function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  // The format MASTER_KEY takes (base64 or hex), strictly: Buffer.from(…, "base64") skips junk silently.
  const hex = /^[0-9a-fA-F]{64}$/.test(text);
  if (!hex && !/^[A-Za-z0-9+/]{43}=$/.test(text)) {
    throw new Error(
      `${file} does not hold a master key (expected 32 bytes, base64 or hex; found ${text.length} characters). ` +
        "Restore it from a backup, or set MASTER_KEY; delete the file only if nothing was ever encrypted under it",
    );
  }
  return Buffer.from(text, hex ? "hex" : "base64");
}

/** Makes the new directory entry durable (a crash right after creation must not lose the key). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the file itself is already synced.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
