import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { sandboxChain } from "@/tests/helpers/chains";
import {
  baseUnits,
  decodeQr,
  launchBrowser,
  newPayer,
  qrBox,
  site,
  snapshot,
  waitUntil,
  type Payer,
} from "./helpers/browser";
import { checkoutPath, createPayment, getPayment } from "./helpers/checkout";

// A payment created without a chain: the payer sees who asks for how much, picks a network, and gets
// an address and a QR code their wallet understands (decoded here from a screenshot, as a phone would).
const MERCHANT = "Harbor Coffee Roasters";
const NETWORKS = ["Ethereum", "BNB Smart Chain", "Polygon", "Tron", "Solana"];

let browser: Browser;
let m: TestMerchant;
let payer: Payer;
beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant(MERCHANT)]);
  payer = await newPayer(browser);
});
afterAll(async () => {
  await payer?.context.close();
  await browser?.close();
});

/** Opens a fresh chain-agnostic payment's checkout and returns it with the page showing the picker. */
async function openPicker(amount: string, description: string) {
  const payment = await createPayment(m, { amount, description });
  expect(payment.chain).toBeNull();
  const response = await payer.page.goto(site(checkoutPath(payment.id)));
  expect(response?.status()).toBe(200);
  return payment;
}

/** After a network was chosen: the deposit address shown, the one the API now reports. */
async function shownDeposit(paymentId: string, chain: string) {
  const { page } = payer;
  const address = page.getByTestId("deposit-address");
  await address.waitFor({ timeout: 15_000 });
  const shown = (await address.innerText()).trim();
  const after = await getPayment(m, paymentId);
  expect(after).toMatchObject({ chain, deposit_address: shown, status: "awaiting_payment" });
  expect(page.url()).toBe(site(checkoutPath(paymentId)));
  return shown;
}

describe("checkout of a payment without a network", () => {
  it("shows amount, description and merchant; BNB Smart Chain gives an EIP-681 QR with 18-decimal units", async () => {
    const { page } = payer;
    const payment = await openPicker("12.500000", "Order #1042 — two bags of beans");
    expect(await page.getByText("Payment to").locator("xpath=..").innerText()).toContain(MERCHANT);
    const amount = page.getByRole("region", { name: "Amount" });
    expect((await amount.innerText()).replace(/\s+/g, " ")).toContain("12.50 USDT");
    expect(await amount.innerText()).toContain("Order #1042 — two bags of beans");
    expect(await page.getByRole("note").first().innerText()).toMatch(/Sandbox payment/);
    // One button per sandbox network, named by the network (and its token standard).
    for (const name of NETWORKS)
      expect(await page.getByRole("button", { name: new RegExp(`^${name} USDT · `) }).count(), name).toBe(1);
    expect(await page.getByRole("button", { name: /^BNB Smart Chain/ }).innerText()).toContain("USDT · BEP-20");
    expect(await page.locator('[role="status"]').count()).toBe(0); // nothing to watch before a network exists
    await snapshot(page, "network-choice-picker");

    await page.getByRole("button", { name: /^BNB Smart Chain/ }).click();
    const deposit = await shownDeposit(payment.id, "bnb");
    expect(deposit).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const bnb = await sandboxChain("bnb");
    expect(bnb.decimals).toBe(18);
    expect(await decodeQr(qrBox(page))).toBe(
      `ethereum:${bnb.tokenAddress}@${bnb.chainId}/transfer?address=${deposit}&uint256=${baseUnits("12.5", 18)}`,
    );
    expect(baseUnits("12.5", 18)).toBe(12_500_000_000_000_000_000n);
    expect(await page.getByText(bnb.tokenAddress, { exact: true }).count()).toBe(1); // the token contract, spelled out
    expect(await page.getByText("Send to this BNB Smart Chain address").count()).toBe(1);
    expect(await page.locator('[role="status"]').getAttribute("data-status")).toBe("awaiting_payment");
    expect(await page.locator('[role="status"]').innerText()).toContain("Send 12.5 USDT on BNB Smart Chain");
    expect(await page.getByRole("button", { name: "Pay with a browser wallet" }).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Pay with sandbox wallet" }).count()).toBe(1);
    await waitUntil("the countdown", async () =>
      /Time left to pay: (\d+:)?\d{1,2}:\d\d/.test(await page.getByText("Time left to pay").innerText()),
    );
    await snapshot(page, "network-choice-bnb");
  });

  it("Solana gives a Solana Pay QR (amount without trailing zeros, the mint as spl-token)", async () => {
    const { page } = payer;
    const payment = await openPicker("7.250000", "Solana order");
    await page.getByRole("button", { name: /^Solana/ }).click();
    const deposit = await shownDeposit(payment.id, "solana");
    expect(deposit).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const solana = await sandboxChain("solana");
    expect(await decodeQr(qrBox(page))).toBe(`solana:${deposit}?amount=7.25&spl-token=${solana.tokenAddress}`);
    await snapshot(page, "network-choice-solana");
  });

  it("Tron's QR is the plain deposit address", async () => {
    const { page } = payer;
    const payment = await openPicker("5.000000", "Tron order");
    await page.getByRole("button", { name: /^Tron/ }).click();
    const deposit = await shownDeposit(payment.id, "tron");
    expect(deposit).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(await decodeQr(qrBox(page))).toBe(deposit);
    await snapshot(page, "network-choice-tron");
  });

  it("works from the keyboard: Tab reaches the first network, Enter chooses it (Ethereum, 6 decimals)", async () => {
    const { page } = payer;
    const payment = await openPicker("3.000001", "Keyboard order");
    let focused = "";
    for (let i = 0; i < 6 && !focused; i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() =>
        document.activeElement?.matches('button[name="chain"]')
          ? (document.activeElement as HTMLButtonElement).value
          : "",
      );
    }
    // The first network button is the first thing Tab reaches that picks a network, and it is Ethereum.
    expect(focused).toBe("eth");
    expect(await page.evaluate(() => document.activeElement === document.querySelector('button[name="chain"]'))).toBe(
      true,
    );
    await page.keyboard.press("Enter");
    const deposit = await shownDeposit(payment.id, "eth");
    const eth = await sandboxChain("eth");
    expect(await decodeQr(qrBox(page))).toBe(
      `ethereum:${eth.tokenAddress}@${eth.chainId}/transfer?address=${deposit}&uint256=3000001`,
    );
    await snapshot(page, "network-choice-keyboard-eth");
  });
});
