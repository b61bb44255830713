import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { formatAmount } from "@/lib/kernel/amount";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { evmChain, startOutboundWorker } from "@/tests/custody/outbound-helpers";
import { startJobsWorker } from "@/tests/custody/payout-helpers";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess, watchPayment } from "@/tests/helpers/chains";
import { freshClientIp, launchBrowser, newPayer, type Payer, site, snapshot, waitUntil } from "./helpers/browser";

// A refund the payer claims: the merchant refunds part of a bnb payment by `claim`, the payer opens the link,
// gives an address (a mistyped one is refused with the reason), confirms, and the USDT arrives on chain, once.
// bnb's sandbox USDT has 18 decimals: the API's 6 are scaled exactly.
let browser: Browser;
let m: TestMerchant;
let payer: Payer;
let chain: Awaited<ReturnType<typeof evmChain>>;
let workers: SpawnedWorker[] = [];
let paymentId = "";
const units = (amount: string) => BigInt(amount.replace(".", ""));
const freshAddress = () => privateKeyToAddress(generatePrivateKey());
const bnbBalance = async () =>
  (await api("GET", "/v1/balances", { key: m.sandboxKey })).json.data.find((b: { chain: string }) => b.chain === "bnb");
const createRefund = async (body: Record<string, unknown>) => {
  const reply = await api("POST", "/v1/refunds", { key: m.sandboxKey, body: { payment: paymentId, ...body } });
  expect(reply.status, reply.text).toBe(200);
  return reply.json as { id: string; claim_url: string; status: string };
};
const refundNow = async (id: string) => (await api("GET", `/v1/refunds/${id}`, { key: m.sandboxKey })).json;

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Harbor Books")]);
  payer = await newPayer(browser);
  workers = await Promise.all([startWatcherProcess(["bnb"]), startJobsWorker(), startOutboundWorker("bnb")]);
  chain = await evmChain("bnb");
  await waitUntil(
    "the treasury's gas (the outbound leader funds it on start)",
    async () => (await chain.client.getBalance({ address: chain.treasury.address as Hex })) > 0n,
    60_000,
  );
  await chain.client.waitForTransactionReceipt({
    hash: (await chain.fundTreasury(20n * 10n ** BigInt(chain.config.decimals))) as Hex,
  });
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "5.000000", chain: "bnb" } });
  expect(created.status, created.text).toBe(200);
  paymentId = created.json.id;
  const paid = await api("POST", `/v1/sandbox/payments/${paymentId}/simulate`, { key: m.sandboxKey, body: {} });
  expect(paid.status, paid.text).toBe(200);
  await watchPayment(m.id, paymentId, (p) => p.status === "confirmed", 60_000);
}, 180_000);
afterAll(async () => {
  await payer?.context.close();
  await browser?.close();
  await Promise.all(workers.map((w) => w.stop()));
});

describe("claiming a refund", () => {
  it("the payer gives an address, confirms it, and receives exactly the amount; the link then is dead", async () => {
    const { page } = payer;
    const before = await bnbBalance();
    const refund = await createRefund({ amount: "2.000000", reason: "requested_by_customer" });
    expect(refund.status).toBe("requires_action");
    const after = formatAmount(units(before.available) - 2_000_000n);
    expect((await bnbBalance()).available).toBe(after);
    const response = await page.goto(refund.claim_url.replace(/^https?:\/\/[^/]+/, site("")));
    expect(response?.status()).toBe(200);
    await page.getByText("Harbor Books").waitFor();
    expect(await page.getByText("Refund from").count()).toBe(1);
    expect(await page.getByLabel("Amount").innerText()).toContain("2");
    expect(await page.getByText("Refunded on BNB Smart Chain").count()).toBe(1);
    await snapshot(page, "refund-claim");

    // A mistyped address (its EIP-55 checksum fails) is refused with the reason, before anything is sent.
    const to = freshAddress();
    const typo = to.replace(/[a-f]/, (c) => c.toUpperCase());
    await page.getByLabel("Your wallet address on BNB Smart Chain").fill(typo);
    await page.getByRole("button", { name: "Continue" }).click();
    // (Next's route announcer is an alert too: the form's own is a paragraph.)
    const alert = page.locator('p[role="alert"]');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/checksum/);
    // The service's own treasury is refused too.
    await page.getByLabel("Your wallet address on BNB Smart Chain").fill(chain.treasury.address);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText(/own treasury address/).waitFor();

    await page.getByLabel("Your wallet address on BNB Smart Chain").fill(to);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Confirm where the refund goes").waitFor();
    expect(await page.getByTestId("claim-address").innerText()).toBe(to);
    await snapshot(page, "refund-claim-confirm");
    await page.getByRole("button", { name: "Confirm and receive the refund" }).click();
    await page.getByText("Your refund is on its way").waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe("/refund/claimed");

    // Single use: the link is gone, and the refund goes out once, to that address.
    expect((await page.goto(refund.claim_url.replace(/^https?:\/\/[^/]+/, site(""))))?.status()).toBe(404);
    const claimed = await refundNow(refund.id);
    expect(claimed).toMatchObject({ to_address: to, claim_url: null });
    // Watched in the database: polled through the API every 50 ms, the key's 60 requests a minute would run out.
    await waitUntil(
      `${refund.id} succeeded`,
      async () => {
        const [now] = await query<{ status: string }>(getDb(), "select status from refunds where id = $1", [refund.id]);
        if (now?.status === "failed") throw new Error(JSON.stringify(await refundNow(refund.id)));
        return now?.status === "succeeded";
      },
      120_000,
    );
    const done = await refundNow(refund.id);
    expect(done.status).toBe("succeeded");
    expect(done.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(to)).toBe(2n * 10n ** 18n);
    expect(await chain.transfersTo(to)).toBe(1);
    expect((await bnbBalance()).available).toBe(after);
    const payment = (await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json;
    expect(payment).toMatchObject({ status: "confirmed", amount_refunded: "2.000000" });
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });

  it(
    "with a one-time code: a wrong code is refused at its field, " +
      "five lock the link, the new link and code claim it",
    async () => {
      const { page } = payer;
      const refund = (await createRefund({ amount: "1.000000", require_claim_code: true })) as Awaited<
        ReturnType<typeof createRefund>
      > & { claim_code: string };
      expect(refund.claim_code).toMatch(/^\d{8}$/);
      const to = freshAddress();
      const wrong = refund.claim_code === "12345678" ? "87654321" : "12345678";
      await page.goto(refund.claim_url.replace(/^https?:\/\/[^/]+/, site("")));
      const tryCode = async (code: string) => {
        // The last try's answer fully applied first: React resets the form when an action's transition ends, and
        // a reset after the fill below would empty the required fields (the browser then posts nothing).
        await page.getByRole("button", { name: "Continue" }).waitFor();
        await page.getByLabel("The code the merchant sent you").fill(code);
        await page.getByLabel("Your wallet address on BNB Smart Chain").fill(to);
        const answered = page.waitForResponse((r) => r.request().method() === "POST");
        await page.getByRole("button", { name: "Continue" }).click();
        await answered;
      };
      await tryCode(wrong);
      await page.getByText("That code is not the one for this refund").waitFor();
      for (let i = 0; i < 4; i++) await tryCode(wrong);
      await page.getByText("This link is locked").waitFor();
      await snapshot(page, "refund-claim-locked");
      expect(await page.getByLabel("The code the merchant sent you").count()).toBe(0);

      const renewed = (
        await api("POST", `/v1/refunds/${refund.id}/regenerate_claim_url`, { key: m.sandboxKey, body: {} })
      ).json;
      await page.goto(renewed.claim_url.replace(/^https?:\/\/[^/]+/, site("")));
      await tryCode(renewed.claim_code);
      await page.getByText("Confirm where the refund goes").waitFor();
      await page.getByRole("button", { name: "Confirm and receive the refund" }).click();
      await page.getByText("Your refund is on its way").waitFor({ timeout: 20_000 });
      expect(await refundNow(refund.id)).toMatchObject({ to_address: to, claim_pending: false });
    },
  );

  it(
    "a canceled refund's link, a made-up token and a malformed one are the same 404; " + "guessing is rate limited",
    async () => {
      const refund = await createRefund({ amount: "1.000000" });
      const canceled = await api("POST", `/v1/refunds/${refund.id}/cancel`, { key: m.sandboxKey, body: {} });
      expect(canceled.json.status).toBe("canceled");
      const ip = freshClientIp();
      const get = (path: string) => fetch(site(path), { headers: { "X-Forwarded-For": ip }, redirect: "manual" });
      const dead = new URL(refund.claim_url).pathname;
      expect((await get(dead)).status).toBe(404);
      expect((await get(`/refund/${randomBytes(32).toString("base64url")}`)).status).toBe(404);
      expect((await get("/refund/not-a-token")).status).toBe(404);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push((await get(`/refund/${randomBytes(32).toString("base64url")}`)).status);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s !== 404 && s !== 429)).toEqual([]);
    },
  );
});
