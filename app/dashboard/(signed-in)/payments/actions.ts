"use server";

import { revalidatePath } from "next/cache";
import { actionErrorMessage, requireActionActor } from "@/lib/identity/auth/action-actor";
import type { DashboardActor } from "@/lib/identity/auth/dashboard-actor";
import {
  type ActionOutcome,
  mineForPayment,
  payInSandbox,
  reorgForPayment,
  resendFromDashboard,
} from "@/lib/dashboard/actions/payment-actions";
import { getDb } from "@/lib/platform/db/client";
import type { Permission } from "@/lib/identity/users/roles";

// The payment and event pages' buttons. Each asks the guard first (a viewer's replayed request is refused
// here), then calls the same lib functions as /v1; the lib refuses sandbox controls in live mode.

/** The guard (role, session) and the selected mode; a refused role becomes the form's error. */
async function guarded(
  permission: Permission,
  run: (actor: DashboardActor, mode: DashboardActor["mode"]) => Promise<ActionOutcome>,
): Promise<ActionOutcome> {
  let actor: DashboardActor;
  try {
    actor = await requireActionActor(permission);
  } catch (err) {
    return { error: actionErrorMessage(err) };
  }
  return run(actor, actor.mode);
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "");
const refresh = (form: FormData) => {
  if (form.get("payment")) revalidatePath(`/dashboard/payments/${text(form, "payment")}`);
  if (form.get("event")) revalidatePath(`/dashboard/events/${text(form, "event")}`);
};

export async function payIt(_prev: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const out = await guarded("payments:write", (actor, mode) =>
    payInSandbox(getDb(), actor, mode, text(form, "payment")),
  );
  refresh(form);
  return out;
}

export async function mineBlocks(_prev: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const out = await guarded("payments:write", (actor, mode) =>
    mineForPayment(getDb(), actor, mode, text(form, "payment"), Number(text(form, "blocks"))),
  );
  refresh(form);
  return out;
}

export async function reorgChain(_prev: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const out = await guarded("payments:write", (actor, mode) =>
    reorgForPayment(getDb(), actor, mode, text(form, "payment"), Number(text(form, "depth"))),
  );
  refresh(form);
  return out;
}

export async function resendWebhook(_prev: ActionOutcome, form: FormData): Promise<ActionOutcome> {
  const out = await guarded("webhooks:write", (actor, mode) =>
    resendFromDashboard(getDb(), actor, mode, text(form, "delivery")),
  );
  refresh(form);
  return out;
}
