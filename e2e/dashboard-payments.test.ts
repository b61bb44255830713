import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherAndJobsProcess } from "@/tests/helpers/chains";
import { startReceiver } from "@/tests/helpers/webhook-receiver";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { createPayment } from "./helpers/checkout";
import { newUser, newVisitor, signIn } from "./helpers/dashboard";

// The payments and events pages (docs/DASHBOARD.md#payments-and-events): find a payment by its deposit
// address, pay it from its page in sandbox (a real transfer on the emulated Tron chain, seen by a real
// watcher), mine it to confirmed, resend a webhook; filter events; a viewer can press nothing.
let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};

/** Reloads the payment's page until its status badge reads one of `statuses`. */
const waitForPaymentStatus = (page: Page, statuses: string[], timeoutMs = 30_000) =>
  waitUntil(
    `payment status ${statuses.join("/")}`,
    async () => {
      await page.reload();
      const status = await page
        .getByTestId("payment-status")
        .locator("[data-status-badge]")
        .getAttribute("data-status-badge");
      return status && statuses.includes(status) ? status : null;
    },
    timeoutMs,
  );

beforeAll(async () => {
  [browser, worker, m, receiver] = await Promise.all([
    launchBrowser(),
    startWatcherAndJobsProcess(["tron"]), // delivers its webhooks too: the Resend below follows the first delivery
    newMerchant("Cobalt Prints"),
    startReceiver(),
  ]);
  const hook = await api("POST", "/v1/webhooks", {
    key: m.sandboxKey,
    body: { url: receiver.url("/hooks"), events: [] },
  });
  expect(hook.status, hook.text).toBe(200);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await worker?.stop();
  await receiver?.close();
});

describe("dashboard payments and events", () => {
  let payAction: Request | undefined;
  let paymentId = "";
  let polygonId = "";

  it("finds a payment by address, pays it in sandbox, mines it to confirmed and resends its webhook", async () => {
    const polygonPayment = await createPayment(m, { amount: "1.000000", chain: "polygon" });
    const target = await createPayment(m, { amount: "7.125000", chain: "tron", metadata: { order: "C-42" } });
    await createPayment(m, { amount: "2.000000" });
    paymentId = target.id;
    polygonId = polygonPayment.id;
    const owner = await newUser(m.id, "owner");
    const { page, errors } = await visitor();
    await signIn(page, owner);
    // The home page's recent payments open their detail.
    expect(await page.getByRole("link", { name: target.id }).count()).toBe(1);

    await page.getByRole("link", { name: "Payments" }).click();
    await page.getByRole("heading", { name: "Payments", exact: true }).waitFor();
    expect(await page.locator("tr[data-payment]").count()).toBe(3);
    await snapshot(page, "dashboard-payments-list");
    await snapshotWide(page, "dashboard-payments-list");

    await page.getByLabel("Search", { exact: true }).fill(target.deposit_address);
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/q=/);
    const rows = page.locator("tr[data-payment]");
    await waitUntil("one search result", async () => (await rows.count()) === 1);
    expect(await rows.first().getAttribute("data-payment")).toBe(target.id);
    expect(await rows.first().innerText()).toContain("7.125000 USDT");
    await snapshot(page, "dashboard-payments-search");

    await page.getByRole("link", { name: target.id }).click();
    await page.getByRole("heading", { name: "Payment 7.125000 USDT" }).waitFor();
    expect(await page.getByTestId("payment-address").innerText()).toBe(target.deposit_address);
    expect(await page.getByText('"order": "C-42"').count()).toBe(1);
    await snapshot(page, "dashboard-payment-awaiting");

    const [action] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      page.getByRole("button", { name: "Pay it" }).click(),
    ]);
    payAction = action;
    const sent = await waitUntil("the transfer's hash", async () => {
      const text = await page.getByRole("status").filter({ hasText: "Sent 7.125000 USDT" }).innerText();
      return /0x[0-9a-f]{64}|[0-9a-f]{64}/.exec(text)?.[0];
    });
    expect(await waitForPaymentStatus(page, ["pending", "confirming"])).toBeTruthy();

    await page.getByLabel("Blocks").fill("40");
    await page.getByRole("button", { name: "Mine blocks" }).click();
    await page.getByRole("status").filter({ hasText: "Mined 40 blocks on tron" }).waitFor({ timeout: 20_000 });
    expect(await waitForPaymentStatus(page, ["confirmed"])).toBe("confirmed");
    const deposit = page.locator("li[data-deposit]");
    expect(await deposit.count()).toBe(1);
    expect(await deposit.innerText()).toContain("7.125000 USDT");
    expect(await page.getByTestId("deposit-tx").innerText()).toBe(sent);
    expect(await page.getByTestId("deposit-tx").locator("a").count()).toBe(0); // no explorer in sandbox
    const timeline = await page
      .locator("li[data-timeline]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-timeline")));
    expect(timeline[0]).toBe("created");
    expect(timeline).toContain("payment.awaiting_payment");
    expect(timeline.at(-1)).toBe("payment.confirmed");
    await snapshot(page, "dashboard-payment-confirmed");
    await snapshotWide(page, "dashboard-payment-confirmed");

    // Resend the confirmed event's delivery: the receiver gets it, and the row shows the attempt.
    const confirmedRow = page.locator("li[data-delivery]").filter({ hasText: "payment.confirmed" });
    expect(await confirmedRow.innerText()).toContain(receiver.url("/hooks"));
    // The payment's own deliveries (awaiting_payment … confirmed) may still be arriving under load: count only
    // this payment's payment.confirmed, once its first delivery is in.
    const confirmedHooks = () =>
      receiver.at("/hooks").filter((h) => {
        const body = JSON.parse(h.body) as { type: string; data: { object: { id: string } } };
        return body.type === "payment.confirmed" && body.data.object.id === target.id;
      });
    const before = (await waitUntil(
      "the first delivery of payment.confirmed",
      () => confirmedHooks().length,
    )) as number;
    await confirmedRow.getByRole("button", { name: "Resend" }).click();
    await confirmedRow.getByRole("status").filter({ hasText: "Resent: the endpoint answered 200." }).waitFor();
    expect(confirmedHooks().length).toBe(before + 1);
    expect(JSON.parse(confirmedHooks().at(-1)!.body)).toMatchObject({
      type: "payment.confirmed",
      data: { object: { id: target.id, status: "confirmed" } },
    });
    await waitUntil("the attempt's status code", async () =>
      (await confirmedRow.getByTestId("last-attempt").innerText()).match(/Attempt \d+ · HTTP 200/),
    );
    await snapshot(page, "dashboard-payment-resent");

    // The emulated Tron chain has no forks: no Reorg there. A Polygon (anvil) payment's page has one.
    expect(await page.getByRole("button", { name: "Reorg" }).count()).toBe(0);
    await page.goto(site(`/dashboard/payments/${polygonPayment.id}`));
    await page.getByLabel("Depth").fill("2");
    await page.getByRole("button", { name: "Reorg" }).click();
    const reorged = await waitUntil("the reorg's outcome", async () => {
      const out = page.locator("form:has(button:text-is('Reorg')) :is([role=status], [role=alert])");
      return (await out.count()) ? out.first().innerText() : null;
    });
    expect(reorged).toMatch(/^Replaced the newest 2 blocks on polygon; head \d+\.$/);

    const audit = await query<{ action: string }>(
      getDb(),
      "select action from audit_log where merchant_id = $1 " +
        "and action like any (array['sandbox.%', 'webhook%']) order by created_at",
      [m.id],
    );
    expect(audit.map((a) => a.action)).toEqual([
      "sandbox.payment_paid",
      "sandbox.blocks_mined",
      "webhook_event.resent",
      "sandbox.chain_reorganized",
    ]);
    expect(errors).toEqual([]);
  });

  it("lists events filtered by type and shows an event's JSON body", async () => {
    const owner = await newUser(m.id, "developer");
    const { page } = await visitor();
    await signIn(page, owner);
    await page.getByRole("link", { name: "Events" }).click();
    await page.getByRole("heading", { name: "Events", exact: true }).waitFor();
    await page.getByLabel("Type").selectOption("payment.confirmed");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/type=payment\.confirmed/);
    const items = page.locator("li[data-event]");
    await waitUntil("confirmed events only", async () => (await items.count()) === 1);
    expect(await items.first().getAttribute("data-event")).toBe("payment.confirmed");
    await snapshot(page, "dashboard-events-filtered");
    await snapshotWide(page, "dashboard-events-filtered");

    await items.first().getByRole("link", { name: "payment.confirmed" }).click();
    await page.getByRole("heading", { name: "payment.confirmed" }).waitFor();
    const body = JSON.parse(await page.getByTestId("event-json").innerText());
    expect(body).toMatchObject({ object: "event", type: "payment.confirmed", data: { object: { id: paymentId } } });
    expect(await page.locator("li[data-delivery]").count()).toBe(1);
    await snapshot(page, "dashboard-event-detail");
    await snapshotWide(page, "dashboard-event-detail");
  });

  it(
    "a viewer sees no buttons and its replay of Pay it is refused; " + "live mode does not show sandbox payments",
    async () => {
      const viewer = await newUser(m.id, "viewer");
      const v = await visitor();
      await signIn(v.page, viewer);
      await v.page.goto(site(`/dashboard/payments/${paymentId}`));
      await v.page.getByRole("heading", { name: "Payment 7.125000 USDT" }).waitFor();
      for (const name of ["Pay it", "Mine blocks", "Resend"])
        expect(await v.page.getByRole("button", { name }).count(), name).toBe(0);
      await v.page.goto(site(`/dashboard/payments/${polygonId}`));
      await v.page.getByRole("heading", { name: "Payment 1.000000 USDT" }).waitFor();
      for (const name of ["Pay it", "Mine blocks", "Reorg"])
        expect(await v.page.getByRole("button", { name }).count(), name).toBe(0);
      await v.page.goto(site(`/dashboard/payments/${paymentId}`));
      expect(await v.page.locator("li[data-delivery]").count()).toBeGreaterThan(0);
      await snapshot(v.page, "dashboard-payment-viewer");

      const audits = async () =>
        (await query(getDb(), "select id from audit_log where merchant_id = $1 and action like 'sandbox.%'", [m.id]))
          .length;
      const before = await audits();
      const headers = Object.fromEntries(
        Object.entries(await payAction!.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
      );
      const asViewer = await v.context.request.post(payAction!.url(), { headers, data: payAction!.postDataBuffer()! });
      expect(await asViewer.text()).toContain("Your role (viewer) does not allow this.");
      expect(await audits()).toBe(before);

      // Live: the sandbox payment does not exist there, and the owner's Pay it does nothing.
      const owner = await newUser(m.id, "owner");
      const o = await visitor();
      await signIn(o.page, owner);
      await o.page.getByRole("button", { name: "Live" }).click();
      await o.page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
      const res = await o.page.goto(site(`/dashboard/payments/${paymentId}`));
      expect(res?.status()).toBe(404);
      await o.page.goto(site("/dashboard/payments"));
      await o.page.getByText("No live payments yet.").waitFor();
      await snapshot(o.page, "dashboard-payments-live-empty");
      const inLive = await o.context.request.post(payAction!.url(), { headers, data: payAction!.postDataBuffer()! });
      expect(await inLive.text()).toContain("Only sandbox payments can be paid");
      expect(await audits()).toBe(before);
    },
  );
});
