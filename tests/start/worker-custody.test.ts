import { spawn } from "node:child_process";
import path from "node:path";
import { generateMnemonic, mnemonicToSeedSync } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { accountXpub } from "@/lib/chains/wallets/derive-address";

const root = path.resolve(import.meta.dirname, "../..");

function startWorker(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("node", ["--import", "tsx", "scripts/start-worker.ts"], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    // A worker that gets past the check would run: stop it, the test then fails on its output.
    const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe("the worker (signer) and the xpubs the web derives live addresses from", () => {
  it("refuses to start when a configured xpub is not its seed's, before doing anything", async () => {
    const mnemonic = generateMnemonic(wordlist, 256);
    const seed = mnemonicToSeedSync(mnemonic);
    const other = mnemonicToSeedSync(generateMnemonic(wordlist, 256));
    const run = await startWorker({
      LIVE_SEED_MNEMONIC: mnemonic,
      LIVE_EVM_XPUB: accountXpub(other, "evm"),
      LIVE_TRON_XPUB: accountXpub(seed, "tron"),
    });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain(
      "[worker] refusing to start: LIVE_EVM_XPUB is not the extended " +
        "public key of the live seed (LIVE_SEED_MNEMONIC / LIVE_SEED_FILE)",
    );
    expect(run.out).not.toContain("LIVE_TRON_XPUB is not");
    expect(run.out).not.toContain("[worker] running");
    expect(run.out).not.toContain(mnemonic.split(" ").slice(0, 2).join(" "));
    expect(run.out).not.toMatch(/^\s+at /m);
  }, 40_000);

  it("an invalid live mnemonic is named, without echoing it or a stack trace", async () => {
    const run = await startWorker({ LIVE_SEED_MNEMONIC: "correct horse battery staple" });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain(
      "[worker] refusing to start: the live seed (LIVE_SEED_MNEMONIC / LIVE_SEED_FILE) is not a valid",
    );
    expect(run.out).not.toContain("horse battery");
    expect(run.out).not.toMatch(/^\s+at /m);
  }, 40_000);
});
