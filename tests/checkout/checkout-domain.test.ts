import { describe, expect, it } from "vitest";
import { FINAL_STATUSES } from "@/lib/money-in/checkout/checkout-status";
import { loadCheckout } from "@/lib/money-in/checkout/load-checkout";
import { loadPaymentLinkPage, payPaymentLink } from "@/lib/money-in/checkout/pay-payment-link";
import { paymentUri, trimDecimal } from "@/lib/chains/payment-uri";
import { streamCheckoutStatus } from "@/lib/money-in/checkout/stream-status";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { selectPaymentChain } from "@/lib/money-in/payments/select-payment-chain";
import { contentSecurityPolicy } from "@/lib/http/server/page-security";
import { api, newMerchant } from "../helpers/api";
import { sandboxChain } from "../helpers/chains";

describe("what the checkout QR code holds", () => {
  it("EIP-681 in the token's own decimals, Solana Pay, the plain Tron address", () => {
    const evm = {
      family: "evm" as const,
      chainId: 56,
      tokenAddress: "0x55d398326f99059fF775485246999027B3197955",
      decimals: 18,
    };
    expect(paymentUri(evm, "0xAbC0000000000000000000000000000000000001", 12_500_000n)).toBe(
      "ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer" +
        "?address=0xAbC0000000000000000000000000000000000001&uint256=12500000000000000000",
    );
    expect(
      paymentUri({ ...evm, chainId: 1, decimals: 6 }, "0xAbC0000000000000000000000000000000000001", 25_000_000n),
    ).toMatch(/@1\/transfer\?address=.*&uint256=25000000$/);
    expect(
      paymentUri(
        { family: "solana", chainId: null, tokenAddress: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", decimals: 6 },
        "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
        25_500_000n,
      ),
    ).toBe(
      "solana:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin?amount=25.5" +
        "&spl-token=Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    );
    expect(
      paymentUri(
        { family: "tron", chainId: null, tokenAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", decimals: 6 },
        "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
        1n,
      ),
    ).toBe("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8");
    expect([trimDecimal("25.000000"), trimDecimal("0.100000"), trimDecimal("10.000000")]).toEqual(["25", "0.1", "10"]);
  });
});

describe("the public checkout's view of a payment", () => {
  it("shows the payer what they need and nothing merchant-private; the network is chosen once", async () => {
    const m = await newMerchant("Acme Coffee");
    const created = (
      await api("POST", "/v1/payments", {
        key: m.sandboxKey,
        body: { amount: "9.990000", description: "Two flat whites", metadata: { internal_ref: "secret-123" } },
      })
    ).json;
    const view = (await loadCheckout(getDb(), created.id))!;
    expect(view).toMatchObject({
      merchantName: "Acme Coffee",
      mode: "sandbox",
      description: "Two flat whites",
      network: null,
      depositAddress: null,
      uri: null,
    });
    expect(view.status).toMatchObject({
      status: "awaiting_payment",
      amount: "9.990000",
      amount_due: "9.990000",
      amount_received: "0.000000",
    });
    expect(view.choices.map((c) => c.chain).sort()).toEqual(["bnb", "eth", "polygon", "solana", "tron"]);
    expect(JSON.stringify(view)).not.toMatch(/secret-123|mer_|key_/);

    await selectPaymentChain(getDb(), created.id, "polygon");
    const chosen = (await loadCheckout(getDb(), created.id))!;
    const polygon = await sandboxChain("polygon");
    expect(chosen.network).toMatchObject({
      chain: "polygon",
      name: "Polygon",
      chainId: 900137,
      tokenAddress: polygon.tokenAddress,
      decimals: 6,
      browserRpcUrl: polygon.rpcUrl,
    });
    expect(chosen.uri).toBe(
      `ethereum:${polygon.tokenAddress}@900137/transfer?address=${chosen.depositAddress}&uint256=9990000`,
    );
    expect(chosen.status.confirmations_required).toBe(4);
    expect(await loadCheckout(getDb(), "pay_doesnotexist")).toBeNull();
    expect(await loadCheckout(getDb(), "../../etc/passwd")).toBeNull();
  });

  it("streams the status: the current one at once, then each change, and ends on a final status", async () => {
    const m = await newMerchant();
    const created = (
      await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000", chain: "eth" } })
    ).json;
    const abort = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const status of streamCheckoutStatus(getDb(), created.id, { signal: abort.signal }))
        seen.push(status.status);
    })();
    await new Promise((r) => setTimeout(r, 200));
    await query(getDb(), "update payments set status = 'expired', closed_at = now() where id = $1", [created.id]);
    await Promise.race([
      reading,
      new Promise((_, reject) => setTimeout(() => reject(new Error("stream did not end")), 5_000)),
    ]);
    expect(seen).toEqual(["awaiting_payment", "expired"]);
    expect(FINAL_STATUSES).toContain("expired");
  });
});

describe("paying a payment link", () => {
  it("an active link creates a normal payment linked to it, with its amount, description and events", async () => {
    const m = await newMerchant("Link Shop");
    const link = (
      await api("POST", "/v1/payment-links", {
        key: m.sandboxKey,
        body: { amount: "25.5", description: "Concert ticket" },
      })
    ).json;
    const token = new URL(link.url).pathname.split("/").pop()!;
    const page = (await loadPaymentLinkPage(getDb(), token))!;
    expect(page).toMatchObject({ merchantName: "Link Shop", active: true });
    const paymentId = await payPaymentLink(getDb(), token, "tron");
    const payment = (await api("GET", `/v1/payments/${paymentId}`, { key: m.sandboxKey })).json;
    expect(payment).toMatchObject({
      status: "awaiting_payment",
      chain: "tron",
      amount: "25.500000",
      description: "Concert ticket",
    });
    const [row] = await query<{ payment_link_id: string }>(
      getDb(),
      "select payment_link_id from payments where id = $1",
      [paymentId],
    );
    expect(row!.payment_link_id).toBe(link.id);
    const events = (await api("GET", "/v1/events?type=payment.awaiting_payment", { key: m.sandboxKey })).json.data;
    expect(events.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(paymentId);
  });

  it("an expired link, an unknown token and a bad network are refused without creating anything", async () => {
    const m = await newMerchant();
    const link = (await api("POST", "/v1/payment-links", { key: m.sandboxKey, body: { amount: "3" } })).json;
    const token = new URL(link.url).pathname.split("/").pop()!;
    await expect(payPaymentLink(getDb(), token, "dogecoin")).rejects.toMatchObject({
      type: "invalid_request_error",
      param: "chain",
    });
    await query(getDb(), "update payment_links set expires_at = now() - interval '1 second' where id = $1", [link.id]);
    expect((await loadPaymentLinkPage(getDb(), token))!.active).toBe(false);
    await expect(payPaymentLink(getDb(), token, "eth")).rejects.toMatchObject({
      type: "invalid_request_error",
      message: "This payment link has expired.",
    });
    await expect(payPaymentLink(getDb(), "A".repeat(32), "eth")).rejects.toMatchObject({ type: "not_found" });
    expect(await loadPaymentLinkPage(getDb(), "short")).toBeNull();
    const [count] = await query<{ n: string }>(
      getDb(),
      "select count(*)::text as n from payments where merchant_id = $1",
      [m.id],
    );
    expect(count!.n).toBe("0");
  });
});

describe("the hosted pages' content security policy", () => {
  it("allows scripts only with the response's nonce, no framing, and calls only to listed origins", () => {
    const csp = contentSecurityPolicy("abc123==", ["http://127.0.0.1:8545", "https://api.mainnet-beta.solana.com"]);
    expect(csp).toContain("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:8545 https://api.mainnet-beta.solana.com");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
