import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { readOrCreateMasterKeyFile } from "@/lib/platform/secrets/master-key";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];

function freshDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "master-key-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("DATA_DIR/master.key", () => {
  it("is created once with 32 random bytes, mode 0600, no temporary file left behind", () => {
    const dir = freshDir();
    const file = path.join(dir, "master.key");
    const key = readOrCreateMasterKeyFile(file);
    expect(key.length).toBe(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(["master.key"]);
    expect(readOrCreateMasterKeyFile(file)).toEqual(key);
  });

  it.each([
    ["empty", ""],
    ["short", Buffer.alloc(16, 7).toString("base64")],
    ["not base64", "not a key at all, just some text that is long enough"],
  ])("an %s file is refused with an error naming the file, and is left untouched", (_, content) => {
    const file = path.join(freshDir(), "master.key");
    fs.writeFileSync(file, content, { mode: 0o600 });
    expect(() => readOrCreateMasterKeyFile(file)).toThrow(file);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  });

  it("accepts a key written by hand in base64 or hex, with a trailing newline", () => {
    const bytes = Buffer.alloc(32, 0xab);
    const file = path.join(freshDir(), "master.key");
    fs.writeFileSync(file, `${bytes.toString("base64")}\n`);
    expect(readOrCreateMasterKeyFile(file)).toEqual(bytes);
    fs.writeFileSync(file, `${bytes.toString("hex")}\n`);
    expect(readOrCreateMasterKeyFile(file)).toEqual(bytes);
  });

  it("processes starting together on a fresh DATA_DIR all end up with the same key", async () => {
    // Round 0 goes through masterKey() on DATA_DIR; further rounds race on fresh subdirectories to widen
    // the chance of catching a reader between another process's create and write.
    const dataDir = freshDir();
    const rounds = 25;
    const startAt = Date.now() + 5000; // every process imports first, then they race at the same instants
    const script = `
      const path = await import("node:path");
      const { masterKey, readOrCreateMasterKeyFile } = await import("./lib/platform/secrets/master-key.ts");
      const keys = [];
      for (let round = 0; round < ${rounds}; round++) {
        while (Date.now() < ${startAt} + round * 40) {}
        const key = round === 0
          ? masterKey()
          : readOrCreateMasterKeyFile(path.join(process.env.DATA_DIR, "r" + round, "master.key"));
        keys.push(key.toString("hex"));
      }
      process.stdout.write(JSON.stringify(keys));
    `;
    const { MASTER_KEY: _k, DATABASE_URL: _d, ...env } = process.env;
    const outputs = await Promise.all(
      Array.from({ length: 8 }, () =>
        run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
          cwd: root,
          env: { ...env, DATA_DIR: dataDir },
        }),
      ),
    );
    const perProcess = outputs.map((o) => JSON.parse(o.stdout) as string[]);
    for (let round = 0; round < rounds; round++) {
      const keys = new Set(perProcess.map((keys) => keys[round]));
      expect(keys.size, `round ${round}`).toBe(1);
      const [key] = keys;
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      const file = path.join(dataDir, round === 0 ? "" : `r${round}`, "master.key");
      expect(Buffer.from(fs.readFileSync(file, "utf8"), "base64").toString("hex")).toBe(key);
    }
    expect(fs.readdirSync(dataDir).filter((f) => !/^r\d+$/.test(f))).toEqual(["master.key"]);
  }, 60_000);
});
