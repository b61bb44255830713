"use server";

import { revalidatePath } from "next/cache";
import { actionErrorMessage, requireActionActor } from "@/lib/identity/auth/action-actor";
import { config } from "@/lib/platform/config/env";
import { createDashboardLink, type PaymentLinkView } from "@/lib/dashboard/actions/payment-links";
import { getDb } from "@/lib/platform/db/client";

export type CreateLinkState = {
  errors?: { amount?: string; description?: string; form?: string };
  link?: PaymentLinkView;
};

/** Creates a payment link in the selected mode (links:write); audited. */
export async function createLink(_prev: CreateLinkState, form: FormData): Promise<CreateLinkState> {
  try {
    const actor = await requireActionActor("links:write");
    const result = await createDashboardLink(
      getDb(),
      actor,
      { amount: String(form.get("amount") ?? ""), description: String(form.get("description") ?? "") },
      config().publicBaseUrl,
    );
    if (!result.ok) return { errors: result.errors };
    revalidatePath("/dashboard/links");
    return { link: result.link };
  } catch (err) {
    return { errors: { form: actionErrorMessage(err) } };
  }
}
