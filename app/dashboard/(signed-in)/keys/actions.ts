"use server";

import { revalidatePath } from "next/cache";
import { type ActionContext, dashboardAction } from "@/app/dashboard/dashboard-action";
import {
  createDashboardKey,
  isRollOverlap,
  revokeDashboardKey,
  rollDashboardKey,
  scopesFromForm,
} from "@/lib/dashboard/actions/api-keys";
import { KeyScopeError } from "@/lib/identity/users/grantable-scopes";
import { getDb } from "@/lib/platform/db/client";
import { KeyNotFoundError } from "@/lib/identity/api-keys/rotate-api-key";

export type KeyActionState = {
  secret?: string;
  id?: string;
  error?: string;
  field?: string;
  stepUp?: boolean;
  done?: string;
};
export type CreateKeyState = KeyActionState;

/** keys:write (live: step-up); a refusal (role, step-up, an unknown key, a scope beyond the role) is the form's. */
const keyAction = (run: (ctx: ActionContext) => Promise<KeyActionState>) =>
  dashboardAction<KeyActionState>(
    {
      permission: "keys:write",
      expected: [KeyNotFoundError, KeyScopeError],
      refused: (refusal, _form, err) =>
        err instanceof KeyScopeError ? { error: err.message, field: "scopes" } : refusal,
    },
    async (ctx) => {
      const state = await run(ctx);
      revalidatePath("/dashboard/keys");
      return state;
    },
  );

/**
 * Creates an API key in the selected mode with the checked scopes, none beyond the user's role (keys:write;
 * live: step-up); the secret comes back once.
 */
export const createKey = keyAction(async ({ form, actor, user, mode }) => {
  const scopes = form.has("scopes-sent") ? scopesFromForm(form.getAll("scope").map(String)) : undefined;
  if (scopes === null) return { error: "Choose at least one scope.", field: "scopes" };
  const key = await createDashboardKey(getDb(), actor, user, mode, scopes);
  return { id: key.id, secret: key.secret };
});

/** Rolls a key: a new secret once; the old one works now / 1 h / 24 h more (keys:write; live: step-up). */
export const rollKey = keyAction(async ({ form, text, actor, user, mode }) => {
  const overlap = form.has("overlap") ? text("overlap") : "now";
  if (!isRollOverlap(overlap)) return { error: "Choose how long the old key keeps working.", field: "overlap" };
  const owner = { merchantId: user.merchantId, mode };
  const rolled = await rollDashboardKey(getDb(), actor, user, owner, text("key"), overlap);
  return { id: rolled.id, secret: rolled.secret };
});

/** Revokes a key at once, after the page's confirmation (keys:write; live: step-up). */
export const revokeKey = keyAction(async ({ text, actor, user, mode }) => {
  const key = await revokeDashboardKey(getDb(), actor, user, { merchantId: user.merchantId, mode }, text("key"));
  return { done: `${key.display} revoked.` };
});
