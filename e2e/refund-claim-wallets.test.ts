import type { Browser, BrowserContext } from "playwright-core";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import type { Chain } from "@/lib/chains/chains";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { createChainAdapter, sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { freshAddress } from "@/lib/chains/addresses/fresh-address";
import { getDb } from "@/lib/platform/db/client";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { startOutboundWorker } from "@/tests/custody/outbound-helpers";
import { startJobsWorker } from "@/tests/custody/payout-helpers";
import { waitForRefund } from "@/tests/custody/refund-helpers";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { sandboxChain, startWatcherProcess, watchPayment } from "@/tests/helpers/chains";
import { launchBrowser, newPayer, site, snapshot, waitUntil } from "./helpers/browser";

// The payer's claim on the four chains e2e/refund-claim.test.ts (bnb, a typed address) leaves: each payer has a
// browser wallet of the chain's family (an EIP-1193 provider announced by EIP-6963, TronLink, Phantom), which
// fills the claim page's address; the payer confirms, and the USDT arrives at that address on chain, once.
// The wallets here only answer "which account?": the page asks nothing else of them (nothing is signed).
const CHAINS: Chain[] = ["eth", "polygon", "tron", "solana"];
const WALLET: Record<string, string> = { evm: "Test Wallet", tron: "TronLink", solana: "Phantom" };
let browser: Browser;
let m: TestMerchant;
let workers: SpawnedWorker[] = [];
const contexts: BrowserContext[] = [];

/** The page half of a wallet that holds `address`: EIP-6963 + window.ethereum, TronLink, or Phantom. */
function injectWallet(cfg: { family: string; address: string }) {
  const w = window as unknown as Record<string, unknown>;
  if (cfg.family === "evm") {
    const provider = {
      request: async ({ method }: { method: string }) => {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [cfg.address.toLowerCase()];
        throw Object.assign(new Error(`${method} is not supported`), { code: 4200 });
      },
    };
    const info = {
      uuid: "7c1f3d7e-2b8a-4f43-9d53-0c6c9a1b2e11",
      name: "Test Wallet",
      icon: "data:,",
      rdns: "test.wallet",
    };
    const announce = () =>
      window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    w.ethereum = provider;
  } else if (cfg.family === "tron") {
    const tronWeb = { ready: false, defaultAddress: { base58: false as string | false, hex: false } };
    w.tronWeb = tronWeb;
    w.tronLink = {
      ready: false,
      tronWeb,
      request: async ({ method }: { method: string }) => {
        if (method !== "tron_requestAccounts") throw new Error(`${method} is not supported`);
        // As TronLink: the account becomes visible once the site is approved.
        tronWeb.ready = true;
        tronWeb.defaultAddress.base58 = cfg.address;
        return { code: 200, message: "The site is already in the whitelist" };
      },
    };
  } else {
    const publicKey = { toString: () => cfg.address, toBase58: () => cfg.address };
    w.phantom = { solana: { isPhantom: true, publicKey: null, connect: async () => ({ publicKey }) } };
  }
}

beforeAll(async () => {
  [browser, m] = await Promise.all([launchBrowser(), newMerchant("Tidewater Goods")]);
  // One process leads the four chains' outbound (polygon's leadership is shared with e2e/dashboard-payouts).
  workers = await Promise.all([
    startWatcherProcess(CHAINS),
    startJobsWorker(),
    startOutboundWorker("eth", { WATCH_CHAINS: CHAINS.join(",") }),
  ]);
}, 120_000);
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await Promise.all(workers.map((w) => w.stop()));
});

/** Test USDT for the chain's treasury (its leader gives it gas on start), on chain before the refund needs it. */
async function fundTreasury(chain: Chain, raw: bigint) {
  const config = await sandboxChain(chain);
  const treasury = await roleKey(getDb(), "sandbox", chain, "treasury");
  const tokenOf = async () => (await createChainAdapter(config).balances(treasury.address)).token;
  const before = await tokenOf();
  await (await sandboxChainOps(config)).fund(treasury.address, raw);
  await waitUntil(`${chain}'s treasury funded`, async () => (await tokenOf()) >= before + raw, 60_000);
}

/**
 * A 3 USDT payment paid by the sandbox wallet and confirmed. Polygon is shared with e2e/dashboard-payments,
 * whose Reorg replaces the newest blocks without their transactions: a transfer gone from the chain that way is
 * paid again (only then).
 */
async function confirmedPayment(chain: Chain) {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "3.000000", chain } });
  expect(created.status, created.text).toBe(200);
  const adapter = createChainAdapter(await sandboxChain(chain));
  for (let attempt = 1; ; attempt++) {
    const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
    expect(paid.status, paid.text).toBe(200);
    try {
      await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", 90_000);
      return created.json.id as string;
    } catch (err) {
      const deposit = (await adapter.balances(created.json.deposit_address)).token;
      if (deposit > 0n || attempt === 3) throw err;
    }
  }
}

describe("claiming a refund with a browser wallet's address", () => {
  it.concurrent.each(CHAINS)(
    "%s: the wallet fills the address, the payer confirms, exactly the amount arrives there once",
    async (chain) => {
      const config = await sandboxChain(chain);
      const family = CHAIN_SPECS[chain].family;
      const network = CHAIN_SPECS[chain].name;
      const raw = (amount: bigint) => amount * 10n ** BigInt(config.decimals - 6);
      const [paymentId] = await Promise.all([confirmedPayment(chain), fundTreasury(chain, raw(5_000_000n))]);
      const created = await api("POST", "/v1/refunds", {
        key: m.sandboxKey,
        body: { payment: paymentId, amount: "1.500000", reason: "requested_by_customer" },
      });
      expect(created.status, created.text).toBe(200);
      expect(created.json).toMatchObject({ status: "requires_action", destination: "claim", to_address: null });

      const to = family === "evm" ? getAddress(freshAddress(chain)) : freshAddress(chain);
      const payer = await newPayer(browser);
      contexts.push(payer.context);
      await payer.context.addInitScript(injectWallet, { family, address: to });
      const { page } = payer;
      expect((await page.goto(created.json.claim_url.replace(/^https?:\/\/[^/]+/, site(""))))?.status()).toBe(200);
      await page.getByText(`Refunded on ${network}`).waitFor();
      await page.getByRole("button", { name: `Use my address from ${WALLET[family]}` }).click();
      await page.getByText(`Filled from ${WALLET[family]}. Check it, then continue.`).waitFor();
      // EVM wallets answer in lower case: the field holds the checksummed (EIP-55) address.
      expect(await page.getByLabel(`Your wallet address on ${network}`).inputValue()).toBe(to);
      await snapshot(page, `refund-claim-wallet-${chain}`);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByText("Confirm where the refund goes").waitFor();
      expect(await page.getByTestId("claim-address").innerText()).toBe(to);
      await page.getByRole("button", { name: "Confirm and receive the refund" }).click();
      await page.getByText("Your refund is on its way").waitFor({ timeout: 20_000 });

      const done = await waitForRefund(created.json.id, "succeeded", 150_000);
      expect(done).toMatchObject({ to_address: to, amount: "1.500000", claim_url: null });
      expect(done.tx_hash).toBeTruthy();
      const adapter = createChainAdapter(config);
      expect((await adapter.balances(to)).token).toBe(raw(1_500_000n));
      const payment = (await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json;
      expect(payment).toMatchObject({ status: "confirmed", amount_refunded: "1.500000" });
    },
    300_000,
  );

  it("the books agree with every refund made", async () => {
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);
  });
});
