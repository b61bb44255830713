import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatAmount } from "@/lib/kernel/amount";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { getRefundPolicy } from "@/lib/money-out/refunds/refund-policy";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { creditedPayment } from "@/tests/helpers/credited-payment";
import { launchBrowser, site, snapshot } from "./helpers/browser";
import { newUser, newUserWithApp, newVisitor, signIn, signInWithCode } from "./helpers/dashboard";

// Refunds from the dashboard (sandbox: no step-up): the owner refunds part of a payment by claim link from the
// payment's page, sees it in the payment's timeline, the refunds list (filtered) and its own page, and cancels
// it; the amount comes back. A viewer sees the refunds but no Refund form, and its posted action is refused. The
// owner sets the refund policy; a viewer's replay of that form changes nothing.
let browser: Browser;
let m: TestMerchant;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const available = async () =>
  (await api("GET", "/v1/balances", { key: m.sandboxKey })).json.data.find((b: { chain: string }) => b.chain === "eth")
    .available as string;

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Harbor Prints")]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
});

describe("dashboard refunds", () => {
  it("the owner refunds part of a payment by claim link, finds it everywhere, and cancels it", async () => {
    const paymentId = await creditedPayment(m, ["8.000000"]);
    const owner = await newUserWithApp(m.id, "owner");
    const { page, errors } = await visitor();
    await signInWithCode(page, owner);
    await page.goto(site(`/dashboard/payments/${paymentId}`));
    await page.getByRole("heading", { name: "Refunds" }).waitFor();
    expect(await page.getByTestId("refundable").innerText()).toBe("8.000000 USDT");

    // Too much: the API's own message next to the amount.
    await page.getByLabel("Amount (USDT)").fill("9.000000");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    await page.locator("#refund-amount-error").waitFor();
    expect(await page.locator("#refund-amount-error").innerText()).toMatch(/above what the payment can still refund/);

    await page.getByLabel("Amount (USDT)").fill("3.000000");
    await page.getByLabel("Reason").selectOption("requested_by_customer");
    await page.getByRole("button", { name: "Refund", exact: true }).click();
    const done = page.locator('div[role="status"]');
    await done.waitFor();
    const id = /Refund (re_\S+) created: requires_action/.exec(await done.innerText())![1]!;
    expect(await done.innerText()).toMatch(/\/refund\/[A-Za-z0-9_-]{43}/);
    expect(await available()).toBe("5.000000");
    await snapshot(page, "dashboard-refund-created");

    await page.reload();
    expect(await page.getByTestId("refundable").innerText()).toBe("5.000000 USDT");
    expect(await page.locator(`[data-refund="${id}"]`).getAttribute("data-status")).toBe("requires_action");
    expect(await page.getByRole("list", { name: "Timeline" }).innerText()).toContain("refund of 3.000000 USDT");

    await page.goto(site("/dashboard/refunds?status=requires_action"));
    expect(await page.locator(`[data-refund="${id}"]`).count()).toBe(1);
    await page.goto(site("/dashboard/refunds?status=succeeded"));
    expect(await page.locator(`[data-refund="${id}"]`).count()).toBe(0);

    await page.goto(site(`/dashboard/refunds/${id}`));
    expect(await page.getByTestId("claim-url").count()).toBe(0); // hidden until a refunder asks
    await page.getByRole("button", { name: "Cancel refund" }).click();
    // The page is rendered again at once: canceled, the reason given, no Cancel button.
    await page.getByText("The merchant canceled the refund before it was sent.").waitFor();
    expect(await page.getByTestId("refund-status").innerText()).toMatch(/canceled/);
    expect(await page.getByRole("button", { name: "Cancel refund" }).count()).toBe(0);
    expect(await available()).toBe("8.000000");
    expect(errors).toEqual([]);
  });

  it(
    "the claim link: shown to a refunder on asking (audited), regenerated with a code; a viewer never sees it, even " +
      "replaying",
    async () => {
      const paymentId = await creditedPayment(m, ["2.000000"]);
      const created = await api("POST", "/v1/refunds", {
        key: m.sandboxKey,
        body: { payment: paymentId, amount: "1.000000" },
      });
      const { id, claim_url: firstUrl } = created.json as { id: string; claim_url: string };
      const owner = await newUserWithApp(m.id, "owner");
      const o = await visitor();
      await signInWithCode(o.page, owner);
      await o.page.goto(site(`/dashboard/refunds/${id}`));
      expect(await o.page.content()).not.toContain(firstUrl);
      const posted = o.page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
      await o.page.getByRole("button", { name: "Show claim link" }).click();
      const request = await posted;
      expect(await o.page.getByTestId("claim-url").innerText()).toBe(firstUrl);
      const audit = await query<{ action: string; user_id: string }>(
        getDb(),
        "select action, user_id from audit_log where target = $1 order by created_at",
        [id],
      );
      expect(audit).toEqual([{ action: "refund.claim_link_shown", user_id: owner.id }]);

      const viewer = await newUser(m.id, "viewer");
      const { page, context, errors } = await visitor();
      await signIn(page, viewer);
      await page.goto(site(`/dashboard/refunds/${id}`));
      await page.getByTestId("refund-status").waitFor();
      expect(await page.getByRole("button", { name: "Show claim link" }).count()).toBe(0);
      expect(await page.content()).not.toContain(new URL(firstUrl).pathname);
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
      );
      const replay = await (
        await context.request.post(request.url(), { headers, data: request.postDataBuffer()! })
      ).text();
      expect(replay).toContain("Your role (viewer) does not allow this.");
      expect(replay).not.toContain(new URL(firstUrl).pathname);

      await o.page.getByLabel("Require a one-time code").check();
      await o.page.getByRole("button", { name: "Regenerate link" }).click();
      await o.page.getByTestId("claim-code").waitFor();
      const newUrl = await o.page.getByTestId("claim-url").innerText();
      expect(newUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
      expect(newUrl).not.toBe(firstUrl);
      expect(await o.page.getByTestId("claim-code").innerText()).toMatch(/^\d{8}$/);
      expect((await o.page.goto(firstUrl.replace(/^https?:\/\/[^/]+/, site(""))))?.status()).toBe(404);
      expect((await o.page.goto(newUrl.replace(/^https?:\/\/[^/]+/, site(""))))?.status()).toBe(200);
      await o.page.getByLabel("The code the merchant sent you").waitFor();
      expect(
        (
          await query(
            getDb(),
            "select 1 from audit_log where target = $1 and action = 'refund.claim_link_regenerated'",
            [id],
          )
        ).length,
      ).toBe(1);
      expect([...o.errors, ...errors]).toEqual([]);
    },
  );

  it(
    "a viewer sees refunds but cannot refund: no form, " + "and a posted refund is refused with nothing written",
    async () => {
      const paymentId = await creditedPayment(m, ["2.000000"]);
      const before = BigInt((await available()).replace(".", ""));
      const after = formatAmount(before - 500_000n);
      // The owner's request, kept to be replayed by the viewer.
      const owner = await newUserWithApp(m.id, "owner");
      const o = await visitor();
      await signInWithCode(o.page, owner);
      await o.page.goto(site(`/dashboard/payments/${paymentId}`));
      const posted = o.page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
      await o.page.getByLabel("Amount (USDT)").fill("0.500000");
      await o.page.getByRole("button", { name: "Refund", exact: true }).click();
      const request = await posted;
      await o.page.locator('div[role="status"]').waitFor();
      expect(await available()).toBe(after);

      const viewer = await newUser(m.id, "viewer");
      const { page, context, errors } = await visitor();
      await signIn(page, viewer);
      await page.goto(site(`/dashboard/payments/${paymentId}`));
      await page.getByRole("heading", { name: "Refunds" }).waitFor();
      expect(await page.getByRole("button", { name: "Refund", exact: true }).count()).toBe(0);
      await page.goto(site("/dashboard/refunds"));
      expect(await page.getByRole("list", { name: "Refunds" }).count()).toBe(1);
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
      );
      const replay = await context.request.post(request.url(), { headers, data: request.postDataBuffer()! });
      expect(await replay.text()).toContain("Your role (viewer) does not allow this.");
      expect(await available()).toBe(after);
      expect(errors).toEqual([]);
    },
  );

  it(
    "the owner sets the refund policy (a bad threshold named at its field); " +
      "a viewer's replay of it changes nothing",
    async () => {
      const pm = await newMerchant("Policy Prints");
      const policy = () => getRefundPolicy(getDb(), pm.id, "sandbox");
      const owner = await newUserWithApp(pm.id, "owner");
      const o = await visitor();
      await signInWithCode(o.page, owner);
      await o.page.goto(site("/dashboard/refunds"));
      expect(await o.page.getByTestId("refund-policy").innerText()).toMatch(/Overpayments: kept · Late payments: kept/);
      const threshold = o.page.getByLabel("Refund overpayments above (USDT; 0.000000 for any excess)");
      await threshold.fill("2.5");
      await o.page.getByRole("button", { name: "Save refund policy" }).click();
      await o.page.locator("#overpaid_above-error").waitFor();
      expect(await o.page.locator("#overpaid_above-error").innerText()).toMatch(
        /^Overpaid above: must be .*exactly 6 decimals/,
      );
      expect((await policy()).overpaidAboveUnits).toBeNull();

      await threshold.fill("1.500000");
      await o.page.getByLabel("Refund what arrives after a payment expired").check();
      const posted = o.page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
      await o.page.getByRole("button", { name: "Save refund policy" }).click();
      const request = await posted;
      await o.page.getByText("Refund policy saved.").waitFor();
      expect(await policy()).toMatchObject({ overpaidAboveUnits: 1_500_000n, refundLatePayments: true });
      await o.page.reload();
      expect(await o.page.getByTestId("refund-policy").innerText()).toMatch(
        /Overpayments: refunded above 1\.500000 USDT · Late payments: refunded/,
      );
      // Back to off, then a viewer replays the owner's request (1.500000, late payments on): refused.
      await o.page.getByLabel("Refund overpayments above (USDT; 0.000000 for any excess)").fill("");
      await o.page.getByLabel("Refund what arrives after a payment expired").uncheck();
      await o.page.getByRole("button", { name: "Save refund policy" }).click();
      await o.page.getByText("Refund policy saved.").waitFor();
      expect(await policy()).toMatchObject({ overpaidAboveUnits: null, refundLatePayments: false });

      const viewer = await newUser(pm.id, "viewer");
      const { page, context, errors } = await visitor();
      await signIn(page, viewer);
      await page.goto(site("/dashboard/refunds"));
      await page.getByTestId("refund-policy").waitFor();
      expect(await page.getByRole("button", { name: "Save refund policy" }).count()).toBe(0);
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
      );
      const replay = await context.request.post(request.url(), { headers, data: request.postDataBuffer()! });
      expect(await replay.text()).toContain("Your role (viewer) does not allow this.");
      expect(await policy()).toMatchObject({ overpaidAboveUnits: null, refundLatePayments: false });
      expect([...o.errors, ...errors]).toEqual([]);
    },
  );
});
