import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ensureDemoMerchant } from "@/lib/identity/merchants/ensure-demo-merchant";
import { acceptInvitation, findInvitation } from "@/lib/identity/users/accept-invitation";
import { newMerchant } from "../helpers/api";
import { runCli } from "../helpers/run-cli";

// Where live chains are configured, no owner password is ever printed: the demo owner (`npm start -- --demo`)
// and the operator's first owners (`users invite`) get a one-time link and choose their own password.
describe("owners invited by the operator", () => {
  it("a demo merchant on an install with live chains: an owner invitation, no user, no live secret", async () => {
    // One demo merchant per installation (a fact row): this run's database may have one from another file.
    await query(getDb(), "delete from installation_facts where key = 'demo_merchant_id'");
    try {
      const demo = await ensureDemoMerchant(getDb(), { owner: "invitation", sandboxChains: false });
      expect(demo.dashboard).toBeNull();
      expect(demo.sandboxSecret).toMatch(/^mnt_test_sk_/);
      expect(JSON.stringify(demo)).not.toContain("mnt_live_sk_");
      const users = await query(getDb(), "select 1 from users where merchant_id = $1", [demo.merchantId]);
      expect(users).toEqual([]);
      const scopes = await query<{ scopes: string[] }>(
        getDb(),
        "select scopes from api_keys where merchant_id = $1 and mode = 'sandbox'",
        [demo.merchantId],
      );
      expect(scopes[0]!.scopes).not.toContain("sandbox:chains");
      expect(await findInvitation(getDb(), demo.invitation!.token)).toMatchObject({
        state: "valid",
        merchantId: demo.merchantId,
        email: "demo@example.com",
        role: "owner",
      });
      const accepted = await acceptInvitation(getDb(), {
        token: demo.invitation!.token,
        password: "the owner's own password",
        ip: "10.0.0.9",
        userAgent: "t",
      });
      expect(accepted.email).toBe("demo@example.com");
      // A later start shows nothing again.
      const again = await ensureDemoMerchant(getDb(), { owner: "invitation", sandboxChains: false });
      expect(again).toEqual({ merchantId: demo.merchantId, sandboxSecret: null, dashboard: null, invitation: null });
    } finally {
      await query(getDb(), "delete from installation_facts where key = 'demo_merchant_id'");
      await query(getDb(), "delete from users where email = 'demo@example.com'");
    }
  });

  it("users invite prints a one-time link for any role (the operator needs no second factor)", async () => {
    const m = await newMerchant();
    const email = `first.owner.${Date.now()}@shop.test`;
    const run = await runCli(["users", "invite", "--merchant", m.id, "--email", email, "--role", "owner", "--json"], {
      ...process.env,
    });
    expect(run.code, run.stderr).toBe(0);
    const { link, invitation } = JSON.parse(run.stdout);
    expect(invitation).toMatchObject({ email, role: "owner" });
    const token = /\/dashboard\/invite\/([0-9A-Za-z]{32})$/.exec(link)![1]!;
    expect(await findInvitation(getDb(), token)).toMatchObject({ state: "valid", email, role: "owner" });
    const taken = await runCli(["users", "invite", "--merchant", m.id, "--email", "x@", "--role", "owner"], {
      ...process.env,
    });
    expect(taken.code).toBe(2);
    const audit = await query<{ user_id: string | null }>(
      getDb(),
      "select user_id from audit_log where merchant_id = $1 and action = 'invitation.created'",
      [m.id],
    );
    expect(audit).toEqual([{ user_id: null }]);
  }, 60_000); // two CLI runs
});
