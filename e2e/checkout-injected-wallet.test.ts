import type { Browser } from "playwright-core";
import { createPublicClient, encodeFunctionData, erc20Abi, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { api, newMerchant, type TestMerchant } from "@/tests/helpers/api";
import { sandboxChain, startWatcherProcess } from "@/tests/helpers/chains";
import {
  launchBrowser,
  newPayer,
  recorded,
  site,
  snapshot,
  statusRegion,
  waitForStatus,
  waitUntil,
  type Payer,
} from "./helpers/browser";
import { checkoutPath, createPayment, evmRpc, getPayment } from "./helpers/checkout";
import { installTestWallet, type TestWalletCall } from "./helpers/test-wallet";

// An injected EIP-1193 wallet ("Test Wallet", announced by EIP-6963 and as window.ethereum) whose key
// lives in this test: the checkout's wallet module connects to it, has it switch to the payment's chain
// and send a USDT transfer, which viem signs for real and sends to the sandbox anvil. The page then
// follows that transaction to "Payment complete" without a reload.
const MERCHANT = "Cobalt Outfitters";

let browser: Browser;
let worker: SpawnedWorker;
let m: TestMerchant;
let payer: Payer;
let wallet: Awaited<ReturnType<typeof installTestWallet>>;
const account = privateKeyToAccount(generatePrivateKey());

beforeAll(async () => {
  [browser, worker, m] = await Promise.all([launchBrowser(), startWatcherProcess(["eth"]), newMerchant(MERCHANT)]);
  const [eth, bnb] = await Promise.all([sandboxChain("eth"), sandboxChain("bnb")]);
  const faucet = await api("POST", "/v1/sandbox/faucet", {
    key: m.sandboxKey,
    body: { chain: "eth", address: account.address, amount: "10.000000" },
  });
  expect(faucet.status, faucet.text).toBe(200);
  await createPublicClient({ transport: http(eth.rpcUrl), pollingInterval: 50 }).waitForTransactionReceipt({
    hash: faucet.json.tx_hash as Hex,
  });
  payer = await newPayer(browser);
  // The wallet starts on another network it knows (sandbox BNB); the payment's chain is new to it.
  wallet = await installTestWallet(payer.context, {
    account,
    rpcs: { [eth.chainId!]: eth.rpcUrl, [bnb.chainId!]: bnb.rpcUrl },
    initialChainId: bnb.chainId!,
  });
});
/** Set while anvil's interval mining is paused; afterAll resumes it even if the test was cut short. */
let resumeMining: (() => Promise<unknown>) | null = null;
afterAll(async () => {
  await resumeMining?.();
  await payer?.context.close();
  await browser?.close();
  await worker?.stop();
});

describe("paying with an injected browser wallet (EIP-6963)", () => {
  it("connect → switch network → send 3 USDT → confirmations rise live → complete", async () => {
    const { page } = payer;
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    const eth = await sandboxChain("eth");
    const payment = await createPayment(m, { amount: "3.000000", chain: "eth", description: "Trail jacket" });
    await page.goto(site(checkoutPath(payment.id)));
    await waitForStatus(page, ["awaiting_payment"]);
    expect(
      await page.evaluate(() => typeof (window as unknown as { ethereum?: { request?: unknown } }).ethereum?.request),
    ).toBe("function"); // the wallet is injected
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    await page.getByRole("button", { name: "Pay with a browser wallet" }).click();
    const connect = page.getByRole("button", { name: "Connect Test Wallet", exact: true });
    await connect.waitFor({ timeout: 15_000 });
    // window.ethereum is the announced provider itself: one wallet, one button.
    expect(await page.getByRole("button", { name: /^Connect / }).count()).toBe(1);
    await snapshot(page, "injected-wallet-connect");
    await connect.click();
    const send = page.getByRole("button", { name: "Send 3 USDT", exact: true });
    await send.waitFor({ timeout: 15_000 });
    await snapshot(page, "injected-wallet-send");

    // Blocks come every 0.5 s and the page's feed samples once a second, so with the chain running a
    // payer might see one count or none. Production is paused while the payment confirms and the test
    // mines block by block, each time waiting for the page to show it: real 12 s Ethereum blocks.
    await evmRpc(eth.rpcUrl, "evm_setIntervalMining", [0]);
    // anvil takes whole seconds here: the rest of the run's eth blocks come every second, not 0.5 s.
    resumeMining = () => evmRpc(eth.rpcUrl, "evm_setIntervalMining", [1]).finally(() => (resumeMining = null));
    try {
      await send.click();
      // The wallet signed and sent exactly one transfer: on the payment's chain, to the token contract,
      // transfer(deposit address, 3 USDT in base units).
      const [tx] = await waitUntil(
        "the wallet to send a transaction",
        () => wallet.sent.length > 0 && wallet.sent,
        20_000,
      );
      expect(wallet.sent).toHaveLength(1);
      expect(tx!.chainId).toBe(eth.chainId);
      expect(tx!.to.toLowerCase()).toBe(eth.tokenAddress.toLowerCase());
      expect(tx!.data.toLowerCase()).toBe(
        encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [payment.deposit_address as Address, 3_000_000n],
        }).toLowerCase(),
      );

      // The wallet was asked to switch to the payment's chain, and (not knowing it) to add it, before sending.
      const calls = (await page.evaluate(
        () => (window as unknown as { __testWallet: { calls: TestWalletCall[] } }).__testWallet.calls,
      )) as TestWalletCall[];
      const chainHex = `0x${eth.chainId!.toString(16)}`;
      const at = (method: string) =>
        calls.findIndex(
          (c) =>
            c.method === method &&
            (method === "eth_sendTransaction" ||
              (c.params as { chainId: string }[])?.[0]?.chainId?.toLowerCase() === chainHex),
        );
      expect(at("wallet_switchEthereumChain"), JSON.stringify(calls.map((c) => c.method))).toBeGreaterThanOrEqual(0);
      expect(at("wallet_addEthereumChain")).toBeGreaterThan(at("wallet_switchEthereumChain"));
      expect(at("eth_sendTransaction")).toBeGreaterThan(at("wallet_addEthereumChain"));

      // Block by block: the transfer's block, then one per confirmation, until the page says complete.
      for (let mined = 1; mined <= 8; mined++) {
        await evmRpc(eth.rpcUrl, "evm_mine");
        const shown = await waitUntil(
          `the page to show block ${mined}`,
          async () => {
            const now = (await statusRegion(page).innerText()).replace(/\s+/g, " ");
            return now.startsWith("Payment complete") ||
              Number(/(\d+) of 4 network confirmations/.exec(now)?.[1]) >= mined
              ? now
              : null;
          },
          10_000,
        );
        if (mined === 1) await snapshot(page, "injected-wallet-confirming");
        if (shown.startsWith("Payment complete")) break;
      }
      const done = await waitForStatus(page, ["confirmed"], 10_000);
      expect(done).toContain("Payment complete");
      expect(done).toContain(`3 USDT received by ${MERCHANT}`);
      await snapshot(page, "injected-wallet-complete");

      // Live, no reload: the status region went through the confirmations, the count rising.
      const rec = await recorded(page);
      expect(rec.sent).toContain(`Transaction sent: ${tx!.hash}`); // the wallet panel said so (it goes once paid)
      const counts = [
        ...new Set(
          rec.statuses
            .map((s) => /(\d+) of 4 network confirmations/.exec(s)?.[1])
            .filter((n): n is string => n !== undefined),
        ),
      ].map(Number);
      expect(counts.length, rec.statuses.join("\n")).toBeGreaterThanOrEqual(2);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(rec.statuses.some((s) => s.includes("Payment received — confirming"))).toBe(true);
      expect(rec.statuses.at(-1)).toMatch(/^confirmed\|Payment complete/);
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

      const paid = await getPayment(m, payment.id);
      expect(paid).toMatchObject({ status: "confirmed", tx_hash: tx!.hash, amount_received: "3.000000" });
      expect(await page.getByTestId("tx-hash").innerText()).toBe(`Transaction ${tx!.hash}`);
      expect(errors).toEqual([]);
    } finally {
      await resumeMining?.();
    }
  });
});
