import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { evmChain, startOutboundWorker } from "@/tests/custody/outbound-helpers";
import { startJobsWorker } from "@/tests/custody/payout-helpers";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess, watchPayment } from "@/tests/helpers/chains";
import { launchBrowser, site, snapshot, snapshotWide, waitUntil } from "./helpers/browser";
import { type DashboardUser, newUser, newUserWithApp, newVisitor, signIn, signInWithCode } from "./helpers/dashboard";

// Payouts from the dashboard on the polygon sandbox chain, executed by a real jobs worker and watcher: the policy
// holds a large payout for review, which the admin who asked for it cannot approve; the owner approves it and
// watches it confirm; another is rejected and its
// amount comes back; a viewer gets no controls, and replayed actions change nothing.
let browser: Browser;
let m: TestMerchant;
let owner: DashboardUser & { secret: string };
let admin: DashboardUser & { secret: string };
let workers: SpawnedWorker[] = [];
let rejectAction: Request | undefined;
let rejectedId = "";
const contexts: BrowserContext[] = [];
const visitor = async () => {
  const v = await newVisitor(browser);
  contexts.push(v.context);
  return v;
};
const freshAddress = () => privateKeyToAddress(generatePrivateKey());
const available = async () =>
  (await api("GET", "/v1/balances", { key: m.sandboxKey })).json.data.find(
    (b: { chain: string }) => b.chain === "polygon",
  ).available as string;
const payoutsPage = async (page: Page) => {
  await page.goto(site("/dashboard/payouts"));
  await page.getByRole("heading", { name: "Payouts", exact: true }).waitFor();
};

/** Fills the payout form and submits it; returns the new payout's id from the confirmation. */
async function createPayout(page: Page, amount: string, to = freshAddress()): Promise<string> {
  await page.getByLabel("Chain").selectOption("polygon");
  await page.getByLabel("Destination address").fill(to);
  await page.getByLabel("Amount (USDT)").fill(amount);
  await page.getByRole("button", { name: "Create payout" }).click();
  const done = page.locator('p[role="status"]', { hasText: "created" });
  await done.waitFor({ timeout: 20_000 });
  return /Payout (pay_out_\S+) created/.exec(await done.innerText())![1]!;
}

/** Reloads the payouts page until the worker has held `id` for review. */
const inQueue = (page: Page, id: string) =>
  waitUntil(
    `${id} in the review queue`,
    async () => {
      await page.waitForTimeout(500);
      await payoutsPage(page);
      const row = page.getByRole("list", { name: "Payouts awaiting review" }).locator(`li[data-payout="${id}"]`);
      return (await row.count()) ? row : null;
    },
    60_000,
  );

/**
 * A 100 USDT polygon payment paid from the sandbox wallet and confirmed. Polygon is shared with
 * e2e/dashboard-payments, whose Reorg replaces the newest blocks without their transactions: a transfer in them
 * is gone from the chain, as a payer's would be, and is paid again. Only then: a transfer still on chain that
 * the watcher does not confirm fails the test.
 */
async function paidDespiteReorgs(chain: Awaited<ReturnType<typeof evmChain>>) {
  const created = await api("POST", "/v1/payments", {
    key: m.sandboxKey,
    body: { amount: "100.000000", chain: "polygon" },
  });
  expect(created.status, created.text).toBe(200);
  for (let attempt = 1; ; attempt++) {
    const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
    expect(paid.status, paid.text).toBe(200);
    try {
      await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", 30_000);
      return;
    } catch (err) {
      const onChain = await chain.client.getTransactionReceipt({ hash: paid.json.tx_hash as Hex }).catch(() => null);
      if (onChain || attempt === 3) throw err;
    }
  }
}

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Harbor Tools")]);
  // The watcher detects the payment and follows transfers; the jobs worker executes payouts; the outbound
  // leader of polygon signs and sends them. The treasury gets its USDT from the faucet (no sweep to wait for).
  workers = await Promise.all([startWatcherProcess(["polygon"]), startJobsWorker(), startOutboundWorker("polygon")]);
  const chain = await evmChain("polygon");
  await waitUntil(
    "the treasury's gas (the outbound leader funds it on start)",
    async () => (await chain.client.getBalance({ address: chain.treasury.address as Hex })) > 0n,
    60_000,
  );
  await chain.client.waitForTransactionReceipt({
    hash: (await chain.fundTreasury(100n * 10n ** BigInt(chain.config.decimals))) as Hex,
  });
  await paidDespiteReorgs(chain);
  [owner, admin] = await Promise.all([newUserWithApp(m.id, "owner"), newUserWithApp(m.id, "admin")]);
}, 120_000);
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await Promise.all(workers.map((w) => w.stop()));
});

describe("dashboard payouts", () => {
  it("the policy holds a payout above 10 USDT; the owner approves it and it confirms on chain", async () => {
    const { page, errors } = await visitor();
    await signInWithCode(page, owner);
    await page.getByRole("link", { name: "Payouts" }).click();
    await page.getByRole("heading", { name: "Payouts", exact: true }).waitFor();
    expect(await page.getByText("No payout waits for review.").count()).toBe(1);
    await page.getByLabel("Review payouts above (USDT)").fill("10.000000");
    await page.getByRole("button", { name: "Save policy" }).click();
    await page.getByText("Policy saved.").waitFor();
    await page.getByText("Review above: 10.000000 USDT").waitFor();

    // The API's own message, next to the amount field.
    await page.getByLabel("Chain").selectOption("polygon");
    await page.getByLabel("Destination address").fill(freshAddress());
    await page.getByLabel("Amount (USDT)").fill("25");
    await page.getByRole("button", { name: "Create payout" }).click();
    const amountError = page.locator("#amount-error");
    await amountError.waitFor();
    expect(await amountError.innerText()).toBe(
      'amount must be a string with exactly 6 decimals, for example "25.000000"; got "25"',
    );
    expect(await page.getByLabel("Amount (USDT)").getAttribute("aria-describedby")).toBe("amount-error");
    await snapshot(page, "dashboard-payouts-amount-error");

    // Two people: an admin asks for the payout and cannot approve it; the owner does.
    const a = await visitor();
    await signInWithCode(a.page, admin);
    await payoutsPage(a.page);
    const id = await createPayout(a.page, "25.000000");
    expect(await available()).toBe("75.000000");
    const own = await inQueue(a.page, id);
    await own.getByRole("button", { name: "Approve" }).click();
    await own.getByText("You asked for this payout: another owner or admin must approve it.").waitFor();
    await snapshot(a.page, "dashboard-payouts-own-approval-refused");
    const row = await inQueue(page, id);
    await snapshot(page, "dashboard-payouts-review-queue");
    await snapshotWide(page, "dashboard-payouts");
    await row.getByRole("button", { name: "Approve" }).click();
    await row.getByText(`${id} approved`).waitFor({ timeout: 15_000 });

    await page.goto(site(`/dashboard/payouts/${id}`));
    const status = page.locator('dd[data-field="Status"]');
    let shown = "";
    await waitUntil(
      `${id} confirmed on its page`,
      async () => {
        await page.waitForTimeout(1000);
        await page.reload();
        shown = await status.innerText();
        return shown === "confirmed";
      },
      180_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the page said ${shown}`);
    });
    const tx = page.getByRole("list", { name: "Transactions" }).getByRole("listitem").first();
    expect(await tx.innerText()).toMatch(/0x[0-9a-f]{64}[\s\S]*confirmed · \d+ confirmations · fee 0\.\d+ POL/);
    expect(await page.getByRole("link", { name: "View on explorer" }).count()).toBe(0); // sandbox: no explorer
    const timeline = await page.getByRole("list", { name: "Timeline" }).innerText();
    expect(timeline).toContain(`approved by ${owner.email}`);
    expect(timeline).toContain("payout.confirmed");
    await snapshot(page, "dashboard-payout-confirmed");
    await snapshotWide(page, "dashboard-payout-confirmed");
    expect(errors).toEqual([]);
  }, 240_000); // the worker sweeps a deposit into the treasury first, then the transfer confirms

  it("rejecting another gives its amount back: failed with failure code rejected", async () => {
    const { page, errors } = await visitor();
    await signInWithCode(page, owner);
    await payoutsPage(page);
    const before = await available();
    const id = await createPayout(page, "20.000000");
    const row = await inQueue(page, id);
    [rejectAction] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === "POST" && "next-action" in r.headers()),
      row.getByRole("button", { name: "Reject" }).click(),
    ]);
    await row.getByText(`${id} rejected: failed`).waitFor({ timeout: 15_000 });
    rejectedId = id;
    expect(await available()).toBe(before);
    await page.goto(site(`/dashboard/payouts/${id}`));
    expect(await page.locator('dd[data-field="Status"]').innerText()).toBe("failed");
    expect(await page.locator('dd[data-field="Failure"]').innerText()).toBe(
      "rejected: An operator rejected the payout under review.",
    );
    await page.goto(site("/dashboard/payouts?status=failed"));
    expect(await page.getByRole("list", { name: "Payouts" }).locator("li[data-payout]").count()).toBe(1);
    await snapshot(page, "dashboard-payouts-filtered");
    expect(errors).toEqual([]);
  });

  it("a viewer sees no controls, and replayed actions (viewer's, or a second reject) change nothing", async () => {
    const viewer = await newUser(m.id, "viewer");
    const { page, context, errors } = await visitor();
    await signIn(page, viewer);
    await payoutsPage(page);
    for (const name of ["Create payout", "Save policy", "Approve", "Reject"])
      expect(await page.getByRole("button", { name }).count(), name).toBe(0);
    await snapshot(page, "dashboard-payouts-viewer");
    expect(rejectAction).toBeDefined();
    const headers = Object.fromEntries(
      Object.entries(await rejectAction!.allHeaders()).filter(([k]) => !["cookie", "content-length"].includes(k)),
    );
    const data = rejectAction!.postDataBuffer()!;
    expect(await (await context.request.post(rejectAction!.url(), { headers, data })).text()).toContain(
      "Your role (viewer) does not allow this.",
    );
    // The owner's own request sent again: the payout is no longer under review.
    const o = await visitor();
    await signInWithCode(o.page, owner);
    const again = await o.context.request.post(rejectAction!.url(), { headers, data });
    expect(await again.text()).toContain(`payout ${rejectedId} is failed, not review_required`);
    const res = await page.goto(site("/dashboard/payouts/pay_out_nope"));
    expect(res?.status()).toBe(404);
    expect(errors).toEqual([]);
  });
});
