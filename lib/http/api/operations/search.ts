import { z } from "zod";
import { paymentObject } from "@/lib/money-in/payments/payment-object";
import { payoutObject } from "@/lib/money-out/payouts/payout-object";
import { refundObject } from "@/lib/money-out/refunds/refund-object";
import { searchQuery } from "@/lib/reports/search/search-query";
import { defineOperation } from "../operation";

export const SEARCH = {
  search: defineOperation({
    operationId: "search",
    method: "get",
    path: "/v1/search",
    tag: "Search",
    summary: "Search payments, payouts and refunds",
    description:
      "Finds the key's payments, payouts and refunds by id, address (deposit, payer or recipient), transaction " +
      "hash, exact amount, metadata value or description: `query` is terms that must all match, each a bare value " +
      "(any field) or `field:value` (`id`, `address`, `tx`, `amount`, `description`, `metadata`, " +
      "`metadata[key]`), and `type:payment|payout|refund` narrows the kinds. Newest first, as full objects; " +
      "payouts and refunds only with their read scope.",
    scope: "payments:read",
    query: searchQuery,
    response: z
      .strictObject({
        object: z.literal("list"),
        data: z.array(z.union([paymentObject, payoutObject, refundObject])),
        has_more: z.boolean(),
      })
      .meta({ id: "SearchResultList" }),
  }),
};
