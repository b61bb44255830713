"use server";

import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
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
import type { Permission } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";

export type KeyActionState = {
  secret?: string;
  id?: string;
  error?: string;
  field?: string;
  stepUp?: boolean;
  done?: string;
};
export type CreateKeyState = KeyActionState;

/** The guard, then the action; refusals (role, step-up, unknown key) come back as the form's error. */
async function guarded(
  permission: Permission,
  run: (user: SessionUser) => Promise<KeyActionState>,
): Promise<KeyActionState> {
  try {
    const user = await requireActionUser(permission);
    const state = await run(user);
    revalidatePath("/dashboard/keys");
    return state;
  } catch (err) {
    if (err instanceof KeyScopeError) return { error: err.message, field: "scopes" };
    return refusalOf(err, [KeyNotFoundError]);
  }
}

/**
 * Creates an API key in the selected mode with the checked scopes, none beyond the user's role (keys:write;
 * live: step-up); the secret comes back once.
 */
export async function createKey(_prev: KeyActionState, form: FormData): Promise<KeyActionState> {
  return guarded("keys:write", async (user) => {
    const scopes = form.has("scopes-sent") ? scopesFromForm(form.getAll("scope").map(String)) : undefined;
    if (scopes === null) return { error: "Choose at least one scope.", field: "scopes" };
    const key = await createDashboardKey(getDb(), await actorOf(user), user, await dashboardMode(), scopes);
    return { id: key.id, secret: key.secret };
  });
}

/** Rolls a key: a new secret once; the old one works now / 1 h / 24 h more (keys:write; live: step-up). */
export async function rollKey(_prev: KeyActionState, form: FormData): Promise<KeyActionState> {
  return guarded("keys:write", async (user) => {
    const overlap = String(form.get("overlap") ?? "now");
    if (!isRollOverlap(overlap)) return { error: "Choose how long the old key keeps working.", field: "overlap" };
    const owner = { merchantId: user.merchantId, mode: await dashboardMode() };
    const rolled = await rollDashboardKey(getDb(), await actorOf(user), user, owner, String(form.get("key")), overlap);
    return { id: rolled.id, secret: rolled.secret };
  });
}

/** Revokes a key at once, after the page's confirmation (keys:write; live: step-up). */
export async function revokeKey(_prev: KeyActionState, form: FormData): Promise<KeyActionState> {
  return guarded("keys:write", async (user) => {
    const owner = { merchantId: user.merchantId, mode: await dashboardMode() };
    const key = await revokeDashboardKey(getDb(), await actorOf(user), user, owner, String(form.get("key")));
    return { done: `${key.display} revoked.` };
  });
}
