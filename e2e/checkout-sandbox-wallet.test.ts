import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { startWatcherProcess } from "@/tests/helpers/chains";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { launchBrowser, newPayer, recorded, site, snapshot, waitForStatus } from "./helpers/browser";
import { checkoutPath, createPayment, getPayment, mine } from "./helpers/checkout";

// The emulated chains paid from the checkout's "Pay with sandbox wallet" button: the page follows the
// real transfer (watched by a real worker) from "received" to "complete" without a reload.
const MERCHANT = "Lantern Books";
const REQUIRED = { tron: 19, solana: 32 } as const;
const NAME = { tron: "Tron", solana: "Solana" } as const;

let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
beforeAll(async () => {
  [browser, worker, m] = await Promise.all([
    launchBrowser(),
    startWatcherProcess(["tron", "solana"]),
    newMerchant(MERCHANT),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
});

describe.each(["tron", "solana"] as const)("sandbox wallet on %s", (chain) => {
  it("pays from the button; the page shows received → confirming → complete live", async () => {
    const { context, page } = await newPayer(browser);
    try {
      const payment = await createPayment(m, { amount: "4.750000", chain, description: `Books via ${chain}` });
      await page.goto(site(checkoutPath(payment.id)));
      expect(await waitForStatus(page, ["awaiting_payment"])).toContain(`Send 4.75 USDT on ${NAME[chain]}`);
      expect(await page.getByTestId("deposit-address").innerText()).toBe(payment.deposit_address);
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await snapshot(page, `sandbox-wallet-${chain}-awaiting`);

      await page.getByRole("button", { name: "Pay with sandbox wallet" }).click();
      const received = await waitForStatus(page, ["pending", "confirming"], 20_000);
      expect(received).toContain("Payment received — confirming");
      expect(received).toMatch(new RegExp(`\\d+ of ${REQUIRED[chain]} network confirmations`));
      // Paid: where-to-pay is gone, so nobody sends twice.
      expect(await page.getByTestId("deposit-address").count()).toBe(0);
      expect(await page.getByRole("button", { name: "Pay with sandbox wallet" }).count()).toBe(0);
      await snapshot(page, `sandbox-wallet-${chain}-confirming`);

      await mine(m, chain, 40);
      const done = await waitForStatus(page, ["confirmed"], 20_000);
      expect(done).toContain("Payment complete");
      expect(done).toContain(`4.75 USDT received by ${MERCHANT}`);
      await snapshot(page, `sandbox-wallet-${chain}-complete`);

      const after = await getPayment(m, payment.id);
      expect(after).toMatchObject({ status: "confirmed", amount_received: "4.750000" });
      expect(after.confirmations).toBeGreaterThanOrEqual(REQUIRED[chain]);
      // The page named the same transfer: the button's "Sent: <tx>" and the status' "Transaction <tx>".
      expect(await page.getByTestId("tx-hash").innerText()).toBe(`Transaction ${after.tx_hash}`);
      const rec = await recorded(page);
      expect(rec.sent).toContain(`Sent: ${after.tx_hash}`);
      const seen = rec.statuses.map((s) => s.split("|")[0]);
      expect(seen[0]).toBe("awaiting_payment");
      expect(seen.at(-1)).toBe("confirmed");
      expect(seen.some((s) => s === "pending" || s === "confirming")).toBe(true);
      // no reload
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
