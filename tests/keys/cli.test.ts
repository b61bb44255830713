import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { api, expectRefusedWithin } from "../helpers/api";
import { runCli } from "../helpers/run-cli";

/** --json promises exactly one JSON document on stdout and nothing else. */
function oneJson(stdout: string) {
  expect(stdout.endsWith("\n")).toBe(true);
  expect(stdout.trimEnd().split("\n")).toHaveLength(1);
  return JSON.parse(stdout);
}

const withService = { ...process.env, DATABASE_URL: process.env.DATABASE_URL };

describe("CLI against the running service's database", () => {
  it("merchants create → keys that work on the live web instances at once", async () => {
    const res = await runCli(
      ["merchants", "create", "--name", "Acme", "--email", "ops@acme.test", "--json"],
      withService,
    );
    expect(res.code).toBe(0);
    const out = oneJson(res.stdout);
    expect(out.merchant).toMatchObject({
      id: expect.stringMatching(/^mer_/),
      object: "merchant",
      name: "Acme",
      email: "ops@acme.test",
    });
    expect(out.keys).toHaveLength(2);
    expect(out.keys[0]).toEqual({
      id: expect.stringMatching(/^key_/),
      mode: "sandbox",
      secret: expect.stringMatching(/^mnt_test_sk_[0-9A-Za-z]{43}$/),
      scopes: expect.arrayContaining(["payments:write"]),
    });
    expect(out.keys[1]).toMatchObject({ mode: "live", secret: expect.stringMatching(/^mnt_live_sk_/) });
    expect((await api("GET", "/v1/payment-links", { key: out.keys[0].secret })).status).toBe(200);
    expect((await api("GET", "/v1/payment-links", { key: out.keys[1].secret })).status).toBe(200);
  });

  it("keys create with scopes, rotate, revoke and list", async () => {
    const merchant = oneJson(
      (await runCli(["merchants", "create", "--name", "B", "--email", "b@b.test", "--json"], withService)).stdout,
    ).merchant;

    const created = await runCli(
      ["keys", "create", "--merchant", merchant.id, "--mode", "live", "--scopes", "payment_links:read", "--json"],
      withService,
    );
    const key = oneJson(created.stdout);
    expect(Object.keys(key).sort()).toEqual(["id", "mode", "scopes", "secret"]);
    expect(key).toMatchObject({ mode: "live", scopes: ["payment_links:read"] });
    expect((await api("POST", "/v1/payment-links", { key: key.secret, body: { amount: "1" } })).status).toBe(403);

    const rotated = oneJson((await runCli(["keys", "rotate", "--key", key.id, "--json"], withService)).stdout);
    expect(Object.keys(rotated).sort()).toEqual(["id", "replaces", "secret"]);
    expect(rotated.replaces).toBe(key.id);
    await expectRefusedWithin(key.secret, { path: "/v1/payment-links" });
    expect((await api("GET", "/v1/payment-links", { key: rotated.secret })).status).toBe(200);

    const revoked = oneJson((await runCli(["keys", "revoke", "--key", rotated.id, "--json"], withService)).stdout);
    expect(revoked).toMatchObject({ id: rotated.id, status: "revoked" });
    await expectRefusedWithin(rotated.secret, { path: "/v1/payment-links" });

    const listed = await runCli(["keys", "list", "--merchant", merchant.id, "--json"], withService);
    const list = oneJson(listed.stdout);
    expect(list.data).toHaveLength(4);
    expect(listed.stdout).not.toMatch(/mnt_(test|live)_sk_[0-9A-Za-z]{43}/);
    expect(list.data.find((k: { id: string }) => k.id === rotated.id)).toMatchObject({
      status: "revoked",
      replaces: key.id,
    });
  }, 90_000); // five CLI processes, each a cold start of its own

  it("errors: exit code non-zero, still one JSON document with --json", async () => {
    const bad = await runCli(["keys", "create", "--merchant", "mer_nope", "--mode", "sandbox", "--json"], withService);
    expect(bad.code).toBe(2);
    expect(oneJson(bad.stdout).error.message).toMatch(/no merchant/);
    const badScope = await runCli(
      ["keys", "create", "--merchant", "mer_nope", "--mode", "sandbox", "--scopes", "everything", "--json"],
      withService,
    );
    expect(oneJson(badScope.stdout).error.message).toMatch(/unknown scope "everything"/);
    const unknown = await runCli(["frobnicate", "--json"], withService);
    expect(unknown.code).toBe(2);
    expect(oneJson(unknown.stdout).error.message).toMatch(/unknown command/);
  });
});

describe("CLI with the service down (embedded database under DATA_DIR)", () => {
  it("starts the embedded database itself, and a later call sees the same data", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-cli-"));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    try {
      const created = await runCli(["merchants", "create", "--name", "Offline", "--email", "o@o.test", "--json"], env);
      expect(created.code).toBe(0);
      const merchantId = oneJson(created.stdout).merchant.id;
      const listed = await runCli(["keys", "list", "--merchant", merchantId, "--json"], env);
      expect(oneJson(listed.stdout).data).toHaveLength(2);
      const human = await runCli(["keys", "list", "--merchant", merchantId], env);
      expect(human.stdout).toMatch(/sandbox\s+mnt_test_sk_\w{4}…\w{4}\s+active/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("CLI: balances and ledger", () => {
  it("balances adjust credits available (visible on the API) and ledger check stays consistent", async () => {
    const created = oneJson(
      (await runCli(["merchants", "create", "--name", "Funded", "--email", "f@f.test", "--json"], withService)).stdout,
    );
    const adjusted = await runCli(
      [
        "balances",
        "adjust",
        "--merchant",
        created.merchant.id,
        "--mode",
        "sandbox",
        "--chain",
        "eth",
        "--amount",
        "150.250000",
        "--reason",
        "sandbox funding",
        "--json",
      ],
      withService,
    );
    expect(adjusted.code).toBe(0);
    expect(oneJson(adjusted.stdout)).toMatchObject({ chain: "eth", amount: "150.250000" });
    const balances = (await api("GET", "/v1/balances", { key: created.keys[0].secret })).json.data;
    expect(balances.find((b: { chain: string }) => b.chain === "eth")).toMatchObject({ available: "150.250000" });
    const overdraw = await runCli(
      [
        "balances",
        "adjust",
        "--merchant",
        created.merchant.id,
        "--mode",
        "sandbox",
        "--chain",
        "eth",
        "--amount",
        "-200.000000",
        "--reason",
        "x",
        "--json",
      ],
      withService,
    );
    expect(overdraw.code).not.toBe(0);
    const check = oneJson((await runCli(["ledger", "check", "--json"], withService)).stdout);
    expect(check.problems.filter((p: { detail: string }) => p.detail.startsWith(created.merchant.id))).toEqual([]);
  }, 90_000); // four CLI runs, each a process that loads the domain: 30 s was too short on a busy CI machine
});
