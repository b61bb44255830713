import { describe, expect, it } from "vitest";
import { LinkPaymentLimitError, MAX_PAYMENTS_PER_LINK } from "@/lib/money-in/checkout/link-payments";
import { payPaymentLink } from "@/lib/money-in/checkout/pay-payment-link";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { api, newMerchant } from "../helpers/api";

async function newLink(amount = "12") {
  const m = await newMerchant("Reuse Shop");
  const link = (await api("POST", "/v1/payment-links", { key: m.sandboxKey, body: { amount } })).json;
  return { m, id: link.id as string, token: new URL(link.url).pathname.split("/").pop()! };
}

const linkPayments = async (linkId: string) =>
  query<{ id: string; chain: string }>(
    getDb(),
    "select id, chain from payments where payment_link_id = $1 order by created_at",
    [linkId],
  );

/** Leaves the payment `minutes` to run (still awaiting payment). */
const setTimeLeft = (paymentId: string, minutes: number) =>
  query(getDb(), "update payments set expires_at = now() + make_interval(mins => $2) where id = $1", [
    paymentId,
    minutes,
  ]);

describe("a payment link's network choice", () => {
  it("returns the link's open payment on that network instead of creating another", async () => {
    const link = await newLink();
    const first = await payPaymentLink(getDb(), link.token, "tron");
    expect(await payPaymentLink(getDb(), link.token, "tron")).toBe(first);
    const other = await payPaymentLink(getDb(), link.token, "polygon");
    expect(other).not.toBe(first);
    expect(await payPaymentLink(getDb(), link.token, "polygon")).toBe(other);
    expect((await linkPayments(link.id)).map((p) => p.chain)).toEqual(["tron", "polygon"]);
  });

  it(
    "creates a fresh payment when the open one has under five " + "minutes left or is no longer awaiting payment",
    async () => {
      const link = await newLink();
      const first = await payPaymentLink(getDb(), link.token, "eth");
      await setTimeLeft(first, 6);
      expect(await payPaymentLink(getDb(), link.token, "eth")).toBe(first);
      await setTimeLeft(first, 4);
      const second = await payPaymentLink(getDb(), link.token, "eth");
      expect(second).not.toBe(first);
      // Paid (here: marked pending, as a detected transfer makes it): the next payer gets a payment of their own.
      await query(getDb(), "update payments set status = 'pending' where id = $1", [second]);
      const third = await payPaymentLink(getDb(), link.token, "eth");
      expect(new Set([first, second, third]).size).toBe(3);
    },
  );

  it("payers choosing one network at the same instant all get the same single payment", async () => {
    const link = await newLink();
    // Connections opened beforehand, so the eight transactions really overlap.
    await Promise.all(Array.from({ length: 8 }, () => query(getDb(), "select pg_sleep(0.05)")));
    const ids = await Promise.all(Array.from({ length: 8 }, () => payPaymentLink(getDb(), link.token, "bnb")));
    expect(new Set(ids).size).toBe(1);
    expect(await linkPayments(link.id)).toEqual([{ id: ids[0], chain: "bnb" }]);
  });

  it(`creates at most ${MAX_PAYMENTS_PER_LINK} payments per link, exactly, also under concurrency`, async () => {
    const link = await newLink();
    // Each payment made unreusable right away, so every choice needs a new one.
    for (let i = 0; i < MAX_PAYMENTS_PER_LINK - 2; i++) {
      await setTimeLeft(await payPaymentLink(getDb(), link.token, "solana"), 1);
    }
    const racing = await Promise.allSettled(
      ["eth", "bnb", "polygon", "tron"].map((chain) => payPaymentLink(getDb(), link.token, chain)),
    );
    expect(racing.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    for (const r of racing.filter((r) => r.status === "rejected"))
      expect(r.reason).toBeInstanceOf(LinkPaymentLimitError);
    const payments = await linkPayments(link.id);
    expect(payments).toHaveLength(MAX_PAYMENTS_PER_LINK);
    await expect(payPaymentLink(getDb(), link.token, "solana")).rejects.toBeInstanceOf(LinkPaymentLimitError);
    // A payer coming back to an open payment still reaches it at the cap.
    const open = racing.find((r) => r.status === "fulfilled")!.value;
    const openChain = payments.find((p) => p.id === open)!.chain;
    expect(await payPaymentLink(getDb(), link.token, openChain)).toBe(open);
    expect(await linkPayments(link.id)).toHaveLength(MAX_PAYMENTS_PER_LINK);
  });
});
