"use server";

import { revalidatePath } from "next/cache";
import { type ActionContext, dashboardAction } from "@/app/dashboard/dashboard-action";
import {
  type ActionOutcome,
  mineForPayment,
  payInSandbox,
  reorgForPayment,
  resendFromDashboard,
} from "@/lib/dashboard/actions/payment-actions";
import type { Permission } from "@/lib/identity/users/roles";
import { getDb } from "@/lib/platform/db/client";

// The payment and event pages' buttons: the same lib functions as /v1 behind the dashboard's guard; the lib
// refuses sandbox controls in live mode.

/** An action of these pages: refused roles come back as its error; the page it was pressed on is shown again. */
const pageAction = (permission: Permission, run: (ctx: ActionContext) => Promise<ActionOutcome>) =>
  dashboardAction<ActionOutcome>({ permission, refused: ({ error }) => ({ error }) }, async (ctx) => {
    const outcome = await run(ctx);
    if (ctx.form.get("payment")) revalidatePath(`/dashboard/payments/${ctx.text("payment")}`);
    if (ctx.form.get("event")) revalidatePath(`/dashboard/events/${ctx.text("event")}`);
    return outcome;
  });

export const payIt = pageAction("payments:write", ({ member, mode, text }) =>
  payInSandbox(getDb(), member, mode, text("payment")),
);

export const mineBlocks = pageAction("payments:write", ({ member, mode, text }) =>
  mineForPayment(getDb(), member, mode, text("payment"), Number(text("blocks"))),
);

export const reorgChain = pageAction("payments:write", ({ member, mode, text }) =>
  reorgForPayment(getDb(), member, mode, text("payment"), Number(text("depth"))),
);

export const resendWebhook = pageAction("webhooks:write", ({ member, mode, text }) =>
  resendFromDashboard(getDb(), member, mode, text("delivery")),
);
