"use server";

import { revalidatePath } from "next/cache";
import { dashboardAction } from "@/app/dashboard/dashboard-action";
import { config } from "@/lib/platform/config/env";
import { createDashboardLink, type PaymentLinkView } from "@/lib/dashboard/actions/payment-links";
import { getDb } from "@/lib/platform/db/client";

export type CreateLinkState = {
  errors?: { amount?: string; description?: string; form?: string };
  link?: PaymentLinkView;
};

/** Creates a payment link in the selected mode (links:write); audited. */
export const createLink = dashboardAction<CreateLinkState>(
  { permission: "links:write", refused: ({ error }) => ({ errors: { form: error } }) },
  async ({ member, text }) => {
    const fields = { amount: text("amount"), description: text("description") };
    const result = await createDashboardLink(getDb(), member, fields, config().publicBaseUrl);
    if (!result.ok) return { errors: result.errors };
    revalidatePath("/dashboard/links");
    return { link: result.link };
  },
);
