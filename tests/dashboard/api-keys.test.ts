import { describe, expect, it } from "vitest";
import {
  createDashboardKey,
  listModeKeys,
  revokeDashboardKey,
  rollDashboardKey,
  scopesFromForm,
} from "@/lib/dashboard/api-keys";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { KeyNotFoundError } from "@/lib/keys/rotate-api-key";
import { StepUpRequiredError } from "@/lib/users/step-up";
import { api, newMerchant } from "../helpers/api";

// The dashboard's key functions (lib/dashboard/api-keys.ts) over lib/keys, checked against the real /v1 API.
const steppedUp = { secondFactorAt: new Date() };
const stale = { secondFactorAt: new Date(Date.now() - 6 * 60_000) };
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
    const m = await newMerchant();
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
    const m = await newMerchant();
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
    const m = await newMerchant();
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
    expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(401);
    expect((await api("GET", "/v1/balances", { key: rolled.secret })).status).toBe(200);
    expect(await audit(m.id)).toEqual(["api_key.rolled"]);
  });

  it("roll now: the old secret is 401 at once; revoke: 401 at once, also during an overlap", async () => {
    const m = await newMerchant();
    const owner = { merchantId: m.id, mode: "sandbox" as const };
    const now = await rollDashboardKey(getDb(), actorOf(m.id), stale, owner, m.sandboxKeyId, "now");
    expect((await api("GET", "/v1/balances", { key: m.sandboxKey })).status).toBe(401);
    const day = await rollDashboardKey(getDb(), actorOf(m.id), stale, owner, now.id, "24h");
    expect(Date.parse(day.old_key_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect((await api("GET", "/v1/balances", { key: now.secret })).status).toBe(200);
    const revoked = await revokeDashboardKey(getDb(), actorOf(m.id), stale, owner, now.id);
    expect(revoked.status).toBe("revoked");
    expect((await api("GET", "/v1/balances", { key: now.secret })).status).toBe(401);
    await revokeDashboardKey(getDb(), actorOf(m.id), stale, owner, day.id);
    expect((await api("GET", "/v1/balances", { key: day.secret })).status).toBe(401);
    expect(await audit(m.id)).toEqual(["api_key.rolled", "api_key.rolled", "api_key.revoked", "api_key.revoked"]);
  });

  it("another merchant's key, or the other mode's, is not found: nothing changes", async () => {
    const [m, other] = await Promise.all([newMerchant(), newMerchant()]);
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
