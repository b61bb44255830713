import { DomainError } from "@/lib/kernel/domain-error";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { createPaymentLink } from "@/lib/money-in/payment-links/create-payment-link";
import { type LinkState, listPaymentLinksPage } from "@/lib/money-in/payment-links/list-payment-links-page";
import { createPaymentLinkBody } from "@/lib/money-in/payment-links/schemas";
import { serializePaymentLink } from "@/lib/money-in/payment-links/serialize-payment-link";
import type { Mode } from "@/lib/kernel/mode";
import { recordAudit } from "@/lib/identity/users/audit";
import { assertCan, type DashboardActor, type FieldErrors, ownerOf } from "@/lib/identity/auth/dashboard-actor";

export type PaymentLinkView = ReturnType<typeof serializePaymentLink>;
export type CreateLinkResult =
  | { ok: true; link: PaymentLinkView }
  | { ok: false; errors: FieldErrors<"amount" | "description"> };

/**
 * A payment link as POST /v1/payment-links makes it (same schema: amount up to 6 decimals, description up
 * to 500 characters), audited in the insert's transaction.
 */
export async function createDashboardLink(
  db: Db,
  actor: DashboardActor,
  input: { amount: string; description: string },
  baseUrl: string,
): Promise<CreateLinkResult> {
  assertCan(actor, "links:write");
  const description = input.description.trim();
  const parsed = createPaymentLinkBody.safeParse({
    amount: input.amount.trim(),
    ...(description ? { description } : {}),
  });
  if (!parsed.success) {
    const errors: FieldErrors<"amount" | "description"> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "description" ? "description" : "amount";
      errors[field] ??= issue.message;
    }
    return { ok: false, errors };
  }
  const row = await inTransaction(db, async (tx) => {
    const link = await createPaymentLink(tx, ownerOf(actor), parsed.data);
    await recordAudit(tx, actor, {
      action: "payment_link.created",
      target: link.id,
      details: { mode: actor.mode, amount: serializePaymentLink(link, baseUrl).amount },
    });
    return link;
  });
  return { ok: true, link: serializePaymentLink(row, baseUrl) };
}

/** One page of active or expired links; a cursor that no longer fits (the link expired meanwhile) restarts. */
export async function listDashboardLinks(
  db: Db,
  owner: { merchantId: string; mode: Mode },
  page: { state: LinkState; starting_after?: string; limit?: number },
  baseUrl: string,
): Promise<{ links: PaymentLinkView[]; hasMore: boolean }> {
  const result = await listPaymentLinksPage(db, owner, page).catch((err: unknown) => {
    if (err instanceof DomainError && err.param === "starting_after")
      return listPaymentLinksPage(db, owner, { ...page, starting_after: undefined });
    throw err;
  });
  const now = new Date();
  return { links: result.rows.map((r) => serializePaymentLink(r, baseUrl, now)), hasMore: result.hasMore };
}
