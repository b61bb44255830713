import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { recordEvent } from "@/lib/notify/events/record-event";
import { markFailed } from "@/lib/notify/webhooks/record-attempts";
import { newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startReceiver, verifySignature } from "@/tests/helpers/webhook-receiver";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { newUser, newUserWithApp, newVisitor, signIn, signInWithCode } from "./helpers/dashboard";

// Webhook endpoints from the dashboard, against a real loopback receiver (sandbox endpoints may use one in
// the test stack): add (secret shown once), test event, its delivery in the log, resend (a second signed
// delivery), filter, disable/enable, delete; a viewer reads only; live needs step-up.
let browser: Browser;
let m: TestMerchant;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const statusText = (page: Page) =>
  waitUntil("a result message", async () => {
    const el = page.getByRole("status").last();
    return (await el.count()) ? (await el.innerText()).trim() : null;
  });

beforeAll(async () => {
  [browser, m, receiver] = await Promise.all([launchBrowser(), newMerchant("Marigold Cycles"), startReceiver()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await receiver?.close();
});

describe("dashboard webhooks", () => {
  let endpointPath = "";
  let testEventAction: Request;

  it("refuses without a session: redirect to sign-in", async () => {
    for (const path of ["/dashboard/webhooks", "/dashboard/webhooks/wh_unknown"]) {
      const res = await fetch(site(path), { redirect: "manual" });
      expect([res.status, res.headers.get("location")], path).toEqual([307, "/dashboard/sign-in"]);
    }
  });

  it("a developer adds an endpoint, sends a test event, sees its delivery, resends it, edits the filter", async () => {
    const dev = await newUser(m.id, "developer");
    const { page, errors } = await visitor();
    await signIn(page, dev);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByText("No sandbox webhook endpoints.").waitFor();
    await snapshot(page, "dashboard-webhooks-empty");

    await page.getByLabel("Endpoint URL").fill("ftp://hooks.example.com/x");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.locator("#url-error").waitFor({ timeout: 15_000 });
    expect(await page.locator("#url-error").innerText()).toBe("url must use https");
    expect(await page.getByLabel("Endpoint URL").inputValue()).toBe("ftp://hooks.example.com/x");
    await snapshot(page, "dashboard-webhooks-invalid");

    await page.getByLabel("Endpoint URL").fill(receiver.url("/hook"));
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = page.getByLabel("Signing secret (shown only this once)");
    await secretBox.waitFor({ timeout: 15_000 });
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);
    expect(await page.getByRole("button", { name: "Copy signing secret" }).count()).toBe(1);
    const listed = page.locator("li[data-endpoint]");
    await listed.waitFor();
    expect(await listed.innerText()).toMatch(/127\.0\.0\.1.*\/hook[\s\S]*enabled[\s\S]*all events/);
    await snapshot(page, "dashboard-webhooks-created");
    await snapshotWide(page, "dashboard-webhooks-created");

    await page.getByRole("link", { name: /^Open endpoint wh_/ }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/wh_[0-9A-Za-z]+$/);
    endpointPath = new URL(page.url()).pathname;
    await page.getByText("No deliveries yet.").waitFor();
    expect(await page.content()).not.toContain(secret);

    [testEventAction] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      page.getByRole("button", { name: "Send test event" }).click(),
    ]);
    expect(await statusText(page)).toMatch(/^Test event evt_\w+: Delivered: HTTP 200 in \d+ ms\.$/);
    const first = page.locator("li[data-attempt]");
    await first.waitFor();
    expect(await first.innerText()).toMatch(/webhook_endpoint\.test\s+HTTP 200\s+attempt 1\s+\d+ ms/);
    expect(receiver.at("/hook")).toHaveLength(1);
    const eventId = JSON.parse(receiver.at("/hook")[0]!.body).id as string;

    receiver.failFirst("/hook", [503]);
    await page.getByRole("button", { name: `Resend ${eventId}` }).click();
    await waitUntil("two attempts", async () => (await page.locator("li[data-attempt]").count()) === 2);
    const attempts = await page.locator("li[data-attempt]").allInnerTexts();
    expect(attempts[0]).toMatch(/webhook_endpoint\.test\s+HTTP 503\s+attempt 2/);
    await page
      .getByRole("button", { name: `Resend ${eventId}` })
      .first()
      .click();
    await waitUntil("three attempts", async () => (await page.locator("li[data-attempt]").count()) === 3);
    expect(await page.locator("li[data-attempt]").first().innerText()).toMatch(/HTTP 200\s+attempt 3/);
    await page.locator("li[data-attempt]").first().getByText("Response").click();
    expect(await page.locator("li[data-attempt] pre").first().innerText()).toBe("ok");
    const got = receiver.at("/hook");
    expect(got).toHaveLength(3);
    for (const r of got) expect(verifySignature(r.headers["service-signature"] as string, r.body, secret)).toBe(true);
    expect(new Set(got.map((r) => JSON.parse(r.body).id))).toEqual(new Set([eventId]));
    await snapshot(page, "dashboard-webhook-deliveries");
    await snapshotWide(page, "dashboard-webhook-deliveries");

    await page.getByRole("radio", { name: "Chosen event types" }).check();
    await page.getByRole("button", { name: "Save filter" }).click();
    await page.locator("#events-error").waitFor({ timeout: 15_000 });
    expect(await page.locator("#events-error").innerText()).toBe("Choose at least one event type, or All events.");
    expect(await page.getByRole("radio", { name: "Chosen event types" }).isChecked()).toBe(true);
    await page.getByRole("checkbox", { name: "payment.confirmed" }).check();
    await page.getByRole("checkbox", { name: "payout.failed" }).check();
    await page.getByRole("button", { name: "Save filter" }).click();
    await page.getByText("Event filter saved.").waitFor({ timeout: 15_000 });
    await page.getByText("payment.confirmed, payout.failed").waitFor();
    expect(await page.getByRole("checkbox", { name: "payout.failed" }).isChecked()).toBe(true);
    expect(errors).toEqual([]);

    const actions = await query<{ action: string; user_id: string }>(
      getDb(),
      "select action, user_id from audit_log where merchant_id = $1 and action like 'webhook%' order by created_at",
      [m.id],
    );
    // An owner who signed in with an app code gets past step-up, to the URL rules (http is refused in live).
    const stepped = await newUserWithApp(m.id, "owner");
    const second = await visitor();
    await signInWithCode(second.page, stepped);
    await second.page.getByRole("button", { name: "Live" }).click();
    await second.page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
    await second.page.goto(site("/dashboard/webhooks"));
    await second.page.getByLabel("Endpoint URL").fill("http://hooks.example.com/live");
    await second.page.getByRole("button", { name: "Add endpoint" }).click();
    await second.page.locator("#url-error").waitFor({ timeout: 15_000 });
    expect(await second.page.locator("#url-error").innerText()).toBe("url must use https");
    expect(await second.page.getByText("Confirm it's you").count()).toBe(0);

    expect(actions.map((a) => a.action)).toEqual([
      "webhook_endpoint.created",
      "webhook_endpoint.test_sent",
      "webhook_event.resent",
      "webhook_event.resent",
      "webhook_endpoint.updated",
    ]);
    expect(new Set(actions.map((a) => a.user_id))).toEqual(new Set([dev.id]));
  });

  it("a viewer sees endpoints and deliveries but no control that changes anything", async () => {
    const viewer = await newUser(m.id, "viewer");
    const { page } = await visitor();
    await signIn(page, viewer);
    await page.goto(site("/dashboard/webhooks"));
    await page.locator("li[data-endpoint]").waitFor();
    expect(await page.getByLabel("Endpoint URL").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Add endpoint" }).count()).toBe(0);
    await page.goto(site(endpointPath));
    expect(await page.locator("li[data-attempt]").count()).toBe(3);
    for (const name of [/Resend/, /Send test event/, /Disable/, /Delete/, /Save filter/])
      expect(await page.getByRole("button", { name }).count(), String(name)).toBe(0);
    expect(await page.getByRole("checkbox").count()).toBe(0);
    await snapshot(page, "dashboard-webhook-viewer");

    // The developer's "Send test event" request, replayed byte for byte with the viewer's session.
    const sent = receiver.at("/hook").length;
    const headers = Object.fromEntries(
      Object.entries(await testEventAction.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
    );
    const replay = await page.context().request.post(testEventAction.url(), {
      headers,
      data: testEventAction.postDataBuffer()!,
    });
    expect(await replay.text()).toContain("Your role (viewer) does not allow this.");
    expect(receiver.at("/hook")).toHaveLength(sent);
  });

  it("a developer resends the endpoint's given-up deliveries with one button", async () => {
    // A payment.confirmed event (the endpoint's filter) whose delivery gave up, as the last retry leaves it. In one
    // transaction: a job runner (another browser file's) only ever sees it given up, never a pending delivery to
    // deliver first (CI saw it delivered before it was marked, and nothing left to resend).
    const delivery = await inTransaction(getDb(), async (tx) => {
      const event = await recordEvent(tx, {
        merchantId: m.id,
        mode: "sandbox",
        type: "payment.confirmed",
        object: { id: "pay_e2eGivenUp" },
      });
      const [row] = await query<{ id: string }>(tx, "select id from webhook_deliveries where event_id = $1", [
        event.id,
      ]);
      await markFailed(tx, [row!.id]);
      return row;
    });
    const dev = await newUser(m.id, "developer");
    const { page, errors } = await visitor();
    await signIn(page, dev);
    await page.goto(site(endpointPath));
    await page.getByRole("button", { name: "Resend failed deliveries" }).click();
    expect(await statusText(page)).toBe("1 failed delivery queued for another attempt.");
    const [state] = await query<{ status: string }>(getDb(), "select status from webhook_deliveries where id = $1", [
      delivery!.id,
    ]);
    // Queued again: pending, or already delivered by a job runner another browser file runs at the same time.
    expect(["pending", "succeeded"]).toContain(state!.status);
    await snapshot(page, "dashboard-webhook-resend-failed");
    await page.getByRole("button", { name: "Resend failed deliveries" }).click();
    await page.getByText("No failed deliveries in the last 7 days.").waitFor({ timeout: 15_000 });
    const audit = await query<{ user_id: string; details: { queued: number } }>(
      getDb(),
      "select user_id, details from audit_log where merchant_id = $1 " +
        "and action = 'webhook.resend_failed' order by created_at",
      [m.id],
    );
    expect(audit.map((a) => [a.user_id, a.details.queued])).toEqual([
      [dev.id, 1],
      [dev.id, 0],
    ]);
    expect(errors).toEqual([]);
  });

  it("an owner disables (nothing is sent), enables, then deletes after confirming; live needs step-up", async () => {
    const owner = await newUser(m.id, "owner");
    const { page } = await visitor();
    await signIn(page, owner);
    await page.goto(site(endpointPath));
    const sent = receiver.at("/hook").length;
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("endpoint-status").innerText()).toBe("disabled");
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("This endpoint is disabled; enable it to send to it.").waitFor({ timeout: 15_000 });
    expect(receiver.at("/hook")).toHaveLength(sent);
    await snapshot(page, "dashboard-webhook-disabled");
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByRole("button", { name: "Disable" }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("endpoint-status").innerText()).toBe("enabled");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Delete this endpoint? It receives nothing more.").waitFor();
    await snapshot(page, "dashboard-webhook-delete-confirm");
    // The confirming button has the focus: Enter confirms, as a keyboard user would.
    await waitUntil("focus on Delete endpoint", () =>
      page.evaluate(() => document.activeElement?.textContent === "Delete endpoint"),
    );
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard\/webhooks$/, { timeout: 15_000 });
    await page.getByText("No sandbox webhook endpoints.").waitFor();
    expect((await page.goto(site(endpointPath)))?.status()).toBe(404);

    await page.goto(site("/dashboard/webhooks"));
    await page.getByRole("button", { name: "Live" }).click();
    await page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
    await page.goto(site("/dashboard/webhooks"));
    // Live needs step-up: this owner has no second factor at all.
    await page.getByLabel("Endpoint URL").fill("https://hooks.example.com/live");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Confirm it's you with your second factor first.").waitFor({ timeout: 15_000 });
    expect(await page.getByRole("link", { name: "Confirm with your second factor" }).getAttribute("href")).toBe(
      "/dashboard/step-up?next=%2Fdashboard%2Fwebhooks",
    );
    await snapshot(page, "dashboard-webhooks-live");
    await snapshotWide(page, "dashboard-webhooks-live");

    const actions = await query<{ action: string }>(
      getDb(),
      "select action from audit_log where merchant_id = $1 " +
        "and user_id = $2 and action like 'webhook%' order by created_at",
      [m.id, owner.id],
    );
    // An owner who signed in with an app code gets past step-up, to the URL rules (http is refused in live).
    const stepped = await newUserWithApp(m.id, "owner");
    const second = await visitor();
    await signInWithCode(second.page, stepped);
    await second.page.getByRole("button", { name: "Live" }).click();
    await second.page.getByRole("button", { name: "Live", pressed: true }).waitFor({ timeout: 15_000 });
    await second.page.goto(site("/dashboard/webhooks"));
    await second.page.getByLabel("Endpoint URL").fill("http://hooks.example.com/live");
    await second.page.getByRole("button", { name: "Add endpoint" }).click();
    await second.page.locator("#url-error").waitFor({ timeout: 15_000 });
    expect(await second.page.locator("#url-error").innerText()).toBe("url must use https");
    expect(await second.page.getByText("Confirm it's you").count()).toBe(0);

    expect(actions.map((a) => a.action)).toEqual([
      "webhook_endpoint.disabled",
      "webhook_endpoint.enabled",
      "webhook_endpoint.deleted",
    ]);
  });
});
