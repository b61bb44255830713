import { describe, expect, it } from "vitest";
import {
  createDashboardKey,
  listModeKeys,
  revokeDashboardKey,
  rollDashboardKey,
  scopesFromForm,
} from "@/lib/dashboard/actions/api-keys";
import { grantableScopes, KeyScopeError, SCOPE_PERMISSION } from "@/lib/identity/users/grantable-scopes";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { KeyNotFoundError } from "@/lib/identity/api-keys/rotate-api-key";
import { ALL_SCOPES } from "@/lib/identity/api-keys/scopes";
import { can } from "@/lib/identity/users/roles";
import { StepUpRequiredError } from "@/lib/identity/users/step-up";
import { api, expectRefusedWithin, newMerchant } from "../helpers/api";

// The dashboard's key functions (lib/dashboard/actions/api-keys.ts)
// over lib/identity/api-keys, checked against the real /v1 API.
const steppedUp = { secondFactorAt: new Date(), role: "owner" as const };
const stale = { secondFactorAt: new Date(Date.now() - 6 * 60_000), role: "owner" as const };
const actorOf = (merchantId: string) => ({ merchantId, userId: null, ip: "10.0.0.1", userAgent: "vitest" });
const audit = async (merchantId: string) =>
  (
    await query<{ action: string }>(
      getDb(),
      "select action from audit_log where merchant_id = $1 order by created_at",
      [merchantId],
    )
  ).map((r) => r.action);

describe("dashboard API keys", () => {
  it("creates a restricted key: allowed calls work on /v1, others are refused (403), audited", async () => {
    const m = await newMerchant("Test merchant", { sandboxChains: false });
    const scopes = scopesFromForm(["payment_links:read", "nonsense"])!;
    expect(scopes).toEqual(["payment_links:read"]);
    expect(scopesFromForm([])).toBeNull();
    const key = await createDashboardKey(getDb(), actorOf(m.id), stale, "sandbox", scopes);
    expect((await api("GET", "/v1/payment-links", { key: key.secret })).status).toBe(200);
    const refused = await api("GET", "/v1/payments", { key: key.secret });
    expect(refused.status).toBe(403);
    expect(await audit(m.id)).toEqual(["api_key.created"]);
    const listed = (await listModeKeys(getDb(), { merchantId: m.id, mode: "sandbox" })).find((k) => k.id === key.id);
    expect(listed).toMatchObject({ scopes: ["payment_links:read"], status: "active", mode: "sandbox" });
  });

  it("live keys need step-up to create, roll or revoke; sandbox keys do not", async () => {
    const m = await newMerchant("Test merchant", { sandboxChains: false });
    const owner = { merchantId: m.id, mode: "live" as const };
    await expect(createDashboardKey(getDb(), actorOf(m.id), stale, "live")).rejects.toBeInstanceOf(StepUpRequiredError);
    await expect(rollDashboardKey(getDb(), actorOf(m.id), stale, owner, m.liveKeyId, "now")).rejects.toBeInstanceOf(
      StepUpRequiredError,
    );
    await expect(revokeDashboardKey(getDb(), actorOf(m.id), stale, owner, m.liveKeyId)).rejects.toBeInstanceOf(
      StepUpRequiredError,
    );
    expect(await audit(m.id)).toEqual([]);
    const live = await createDashboardKey(getDb(), actorOf(m.id), steppedUp, "live");
    expect(live.secret).toMatch(/^mnt_live_sk_/);
    expect((await api("GET", "/v1/balances", { key: live.secret })).status).toBe(200);
  });

  it("roll with a 1 hour overlap: both secrets work until the overlap ends, then the old one is 401", async () => {
    const m = await newMerchant("Test merchant", { sandboxChains: false });
    const owner = { merchantId: m.id, mode: "sandbox" as const };
    const rolled = await rollDashboardKey(getDb(), actorOf(m.id), stale, owner, m.sandboxKeyId, "1h");
    expect(Date.parse(rolled.old_key_expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(200);
    expect((await api("GET", "/v1/balances", { key: rolled.secret })).status).toBe(200);
    const keys = await listModeKeys(getDb(), owner);
    expect(keys.find((k) => k.id === m.sandboxKeyId)?.status).toBe("expiring");
    // A key in its overlap cannot be rolled again.
    await expect(rollDashboardKey(getDb(), actorOf(m.id), stale, owner, m.sandboxKeyId, "now")).rejects.toBeInstanceOf(
      KeyNotFoundError,
    );
    // The overlap ends (as if an hour passed).
    await query(getDb(), "update api_keys set revoked_at = now() - interval '1 second' where id = $1", [
      m.sandboxKeyId,
    ]);
    await expectRefusedWithin(m.sandboxKey);
    expect((await api("GET", "/v1/balances", { key: rolled.secret })).status).toBe(200);
    expect(await audit(m.id)).toEqual(["api_key.rolled"]);
  });

  it("roll now: the old secret is refused at once; revoke: refused at once, also during an overlap", async () => {
    const m = await newMerchant("Test merchant", { sandboxChains: false });
    const owner = { merchantId: m.id, mode: "sandbox" as const };
    const now = await rollDashboardKey(getDb(), actorOf(m.id), stale, owner, m.sandboxKeyId, "now");
    await expectRefusedWithin(m.sandboxKey);
    const day = await rollDashboardKey(getDb(), actorOf(m.id), stale, owner, now.id, "24h");
    expect(Date.parse(day.old_key_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect((await api("GET", "/v1/balances", { key: now.secret })).status).toBe(200);
    const revoked = await revokeDashboardKey(getDb(), actorOf(m.id), stale, owner, now.id);
    expect(revoked.status).toBe("revoked");
    await expectRefusedWithin(now.secret);
    await revokeDashboardKey(getDb(), actorOf(m.id), stale, owner, day.id);
    await expectRefusedWithin(day.secret);
    expect(await audit(m.id)).toEqual(["api_key.rolled", "api_key.rolled", "api_key.revoked", "api_key.revoked"]);
  });

  it("another merchant's key, or the other mode's, is not found: nothing changes", async () => {
    const [m, other] = await Promise.all([newMerchant(), newMerchant("Other", { sandboxChains: false })]);
    const sandbox = { merchantId: m.id, mode: "sandbox" as const };
    for (const keyId of [other.sandboxKeyId, m.liveKeyId]) {
      await expect(rollDashboardKey(getDb(), actorOf(m.id), steppedUp, sandbox, keyId, "now")).rejects.toBeInstanceOf(
        KeyNotFoundError,
      );
      await expect(revokeDashboardKey(getDb(), actorOf(m.id), steppedUp, sandbox, keyId)).rejects.toBeInstanceOf(
        KeyNotFoundError,
      );
    }
    expect((await api("GET", "/v1/balances", { key: other.sandboxKey })).status).toBe(200);
    expect((await api("GET", "/v1/balances", { key: m.liveKey })).status).toBe(200);
    expect(await audit(m.id)).toEqual([]);
  });
});

describe("a key never does more than its creator may (docs/DASHBOARD.md#api-keys)", () => {
  const developer = { secondFactorAt: new Date(), role: "developer" as const };
  const keyRows = async (merchantId: string) =>
    (await query(getDb(), "select id from api_keys where merchant_id = $1", [merchantId])).length;

  it("a developer cannot create a key with payouts:write, sandbox or live (stepped up); an owner can", async () => {
    const m = await newMerchant("Scope shop", { sandboxChains: false });
    const before = await keyRows(m.id);
    for (const mode of ["sandbox", "live"] as const) {
      await expect(
        createDashboardKey(getDb(), actorOf(m.id), developer, mode, ["payments:read", "payouts:write"]),
      ).rejects.toThrow(new KeyScopeError("Your role (developer) cannot give a key these scopes: payouts:write."));
    }
    expect(await keyRows(m.id)).toBe(before);
    expect(await audit(m.id)).toEqual([]);
    // Left to the default, the developer's key gets only what a developer may do: no payouts.
    const own = await createDashboardKey(getDb(), actorOf(m.id), developer, "sandbox");
    expect(own.scopes).toEqual(grantableScopes("developer"));
    expect(own.scopes).not.toContain("payouts:write");
    const payout = { chain: "polygon", to_address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: "1.000000" };
    expect((await api("POST", "/v1/payouts", { key: own.secret, body: payout })).status).toBe(403);

    const owners = await createDashboardKey(getDb(), actorOf(m.id), steppedUp, "sandbox", ["payouts:write"]);
    const made = await api("POST", "/v1/payouts", { key: owners.secret, body: payout });
    expect(made.status).not.toBe(403);
    expect(made.json.error?.type).toBe("insufficient_balance");
  });

  it(
    "a developer cannot roll a key whose scopes exceed theirs; " + "no one rolls or grants sandbox:chains here",
    async () => {
      const m = await newMerchant("Roll shop", { sandboxChains: false });
      const sandbox = { merchantId: m.id, mode: "sandbox" as const };
      await expect(rollDashboardKey(getDb(), actorOf(m.id), developer, sandbox, m.sandboxKeyId, "now")).rejects.toThrow(
        KeyScopeError,
      );
      expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(200);
      const keys = await listModeKeys(getDb(), sandbox);
      expect(keys.map((k) => k.status)).toEqual(["active"]);
      // A key within the developer's role rolls.
      const mine = await createDashboardKey(getDb(), actorOf(m.id), developer, "sandbox", ["payments:read"]);
      expect((await rollDashboardKey(getDb(), actorOf(m.id), developer, sandbox, mine.id, "now")).secret).toMatch(
        /^mnt_test_sk_/,
      );
      // The chain-wide sandbox controls are the operator's to grant (CLI), not an owner's.
      await expect(
        createDashboardKey(getDb(), actorOf(m.id), steppedUp, "sandbox", ["sandbox:chains"]),
      ).rejects.toThrow(KeyScopeError);
      const operators = await newMerchant("Operator's shop"); // its sandbox key holds sandbox:chains
      await expect(
        rollDashboardKey(
          getDb(),
          actorOf(operators.id),
          steppedUp,
          { merchantId: operators.id, mode: "sandbox" },
          operators.sandboxKeyId,
          "now",
        ),
      ).rejects.toThrow(new KeyScopeError("Your role (owner) cannot roll a key with these scopes: sandbox:chains."));
    },
  );

  it("the scope table: each role may give exactly the scopes whose permission it has", () => {
    expect(grantableScopes("owner")).toEqual(ALL_SCOPES.filter((s) => s !== "sandbox:chains"));
    expect(grantableScopes("admin")).toEqual(grantableScopes("owner"));
    expect(grantableScopes("developer")).toEqual([
      "payments:read",
      "payment_links:read",
      "balances:read",
      "payouts:read",
      "refunds:read",
      "customers:read",
      "deposits:read",
      "webhooks:read",
      "webhooks:write",
      "events:read",
      "events:write",
    ]);
    for (const role of ["owner", "admin", "developer", "viewer"] as const)
      for (const scope of grantableScopes(role)) expect(can(role, SCOPE_PERMISSION[scope]!)).toBe(true);
  });
});
