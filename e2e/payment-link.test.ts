import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PAYMENTS_PER_LINK } from "@/lib/money-in/checkout/link-payments";
import { payPaymentLink } from "@/lib/money-in/checkout/pay-payment-link";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess } from "@/tests/helpers/chains";
import { launchBrowser, newPayer, recorded, site, snapshot, waitForStatus, type Payer } from "./helpers/browser";
import { getPayment } from "./helpers/checkout";

// A payment link's public page: the payer picks a network, a payment linked to the link is created (or its
// open one on that network reused) and its checkout opens; expired, full and unknown links say so.
const MERCHANT = "Tidewater Ceramics";

let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
let payer: Payer;
beforeAll(async () => {
  [browser, worker, m] = await Promise.all([launchBrowser(), startWatcherProcess(["polygon"]), newMerchant(MERCHANT)]);
  payer = await newPayer(browser);
});
afterAll(async () => {
  await payer?.context.close();
  await browser?.close();
  await worker?.stop();
});

async function createLink(body: Record<string, unknown>) {
  const reply = await api("POST", "/v1/payment-links", { key: m.sandboxKey, body });
  expect(reply.status, reply.text).toBe(200);
  // The link's url is on PUBLIC_BASE_URL; the browser opens the same path on the web instance.
  const url = new URL(reply.json.url);
  expect(url.pathname).toMatch(/^\/pay\/[0-9A-Za-z]{16,64}$/);
  return { ...reply.json, path: url.pathname } as { id: string; path: string; amount: string };
}

describe("payment links", () => {
  it("link → pick Polygon → the new payment's checkout → sandbox wallet → complete", async () => {
    const { page } = payer;
    const link = await createLink({ amount: "9.900000", description: "Glazed mug, blue" });
    const response = await page.goto(site(link.path));
    expect(response?.status()).toBe(200);
    expect(await page.getByRole("region", { name: "Amount" }).innerText()).toMatch(
      /9\.90\s+USDT[\s\S]*Glazed mug, blue/,
    );
    expect(await page.getByText(MERCHANT, { exact: true }).count()).toBe(1);
    expect(await page.getByRole("button", { name: /^Polygon USDT · ERC-20/ }).count()).toBe(1);
    await snapshot(page, "payment-link-picker");

    await page.getByRole("button", { name: /^Polygon/ }).click();
    await page.waitForURL(/\/checkout\/pay_[0-9A-Za-z]+$/, { timeout: 15_000 });
    const paymentId = new URL(page.url()).pathname.split("/").pop()!;
    expect(await waitForStatus(page, ["awaiting_payment"])).toContain("Send 9.9 USDT on Polygon");
    const created = await getPayment(m, paymentId);
    expect(created).toMatchObject({
      status: "awaiting_payment",
      chain: "polygon",
      amount: "9.900000",
      description: "Glazed mug, blue",
    });
    expect(await page.getByTestId("deposit-address").innerText()).toBe(created.deposit_address);
    await snapshot(page, "payment-link-checkout");

    await page.getByRole("button", { name: "Pay with sandbox wallet" }).click();
    // (Polygon's 4 confirmations take ~2 s here: the intermediate states are the other files' business.)
    const done = await waitForStatus(page, ["confirmed"], 25_000);
    expect(done).toContain("Payment complete");
    expect(done).toContain(`9.9 USDT received by ${MERCHANT}`);
    await snapshot(page, "payment-link-complete");

    const paid = await getPayment(m, paymentId);
    expect(paid).toMatchObject({ id: paymentId, status: "confirmed", chain: "polygon", amount_received: "9.900000" });
    expect((await recorded(page)).sent).toContain(`Sent: ${paid.tx_hash}`);
    const [row] = await query<{ payment_link_id: string | null }>(
      getDb(),
      "select payment_link_id from payments where id = $1",
      [paymentId],
    );
    expect(row?.payment_link_id).toBe(link.id);
    // The link stays open for the next payer: a second visit shows the picker again.
    await page.goto(site(link.path));
    expect(await page.getByRole("button", { name: /^Polygon/ }).count()).toBe(1);
  });

  it("choosing a network again, by the same payer or another, opens the same payment", async () => {
    const link = await createLink({ amount: "4.250000" });
    const choose = async (page: Payer["page"]) => {
      await page.goto(site(link.path));
      await page.getByRole("button", { name: /^Tron/ }).click();
      await page.waitForURL(/\/checkout\/pay_[0-9A-Za-z]+$/, { timeout: 15_000 });
      expect(await waitForStatus(page, ["awaiting_payment"])).toContain("Send 4.25 USDT on Tron");
      return {
        id: new URL(page.url()).pathname.split("/").pop()!,
        address: await page.getByTestId("deposit-address").innerText(),
      };
    };
    const first = await choose(payer.page);
    expect(await choose(payer.page)).toEqual(first);
    const other = await newPayer(browser);
    try {
      expect(await choose(other.page)).toEqual(first);
    } finally {
      await other.context.close();
    }
    const [row] = await query<{ n: number }>(
      getDb(),
      "select count(*)::int as n from payments where payment_link_id = $1",
      [link.id],
    );
    expect(row!.n).toBe(1);
  });

  it("a link that has started all its payments says it cannot take more", async () => {
    const { page } = payer;
    const link = await createLink({ amount: "1.000000" });
    const token = link.path.split("/").pop()!;
    for (let i = 0; i < MAX_PAYMENTS_PER_LINK; i++) {
      const id = await payPaymentLink(getDb(), token, "polygon");
      // Too little time left to hand to a payer: the next choice needs a new payment.
      await query(getDb(), "update payments set expires_at = now() + interval '1 minute' where id = $1", [id]);
    }
    await page.goto(site(link.path));
    await page.getByRole("button", { name: /^Polygon/ }).click();
    await page.waitForURL(/\?error=full$/, { timeout: 15_000 });
    const status = page.getByRole("status");
    expect(await status.innerText()).toContain("This payment link cannot take more payments now");
    expect(await status.innerText()).toContain(`Ask ${MERCHANT} for a new one`);
    expect(await page.locator('button[name="chain"]').count()).toBe(0);
    await snapshot(page, "payment-link-full");
  });

  it("an expired link says so and offers no network", async () => {
    const { page } = payer;
    const link = await createLink({ amount: "2.000000" });
    await query(getDb(), "update payment_links set expires_at = now() - interval '1 minute' where id = $1", [link.id]);
    const response = await page.goto(site(link.path));
    expect(response?.status()).toBe(200);
    const status = page.getByRole("status");
    expect(await status.innerText()).toContain("This payment link has expired");
    expect(await status.innerText()).toContain(`Ask ${MERCHANT} for a new one`);
    expect(await page.locator('button[name="chain"]').count()).toBe(0);
    for (const name of ["Ethereum", "Polygon", "Tron", "Solana"])
      expect(await page.getByRole("button", { name: new RegExp(`^${name}`) }).count()).toBe(0);
    expect(await page.locator("form").count()).toBe(0);
    await snapshot(page, "payment-link-expired");
  });

  it("an unknown token is a 404 page", async () => {
    const { page } = payer;
    const response = await page.goto(site("/pay/Zz9NoSuchLinkToken0000000000000"));
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(1);
    expect(await page.locator('button[name="chain"]').count()).toBe(0);
    await snapshot(page, "payment-link-unknown");
  });
});
