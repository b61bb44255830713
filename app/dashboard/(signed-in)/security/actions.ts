"use server";

import { revalidatePath } from "next/cache";
import { actorOf, requireActionUser } from "@/lib/auth/guard";
import { getDb } from "@/lib/db/client";
import {
  confirmAuthenticatorApp,
  removeAuthenticatorApp,
  renewRecoveryCodes,
} from "@/lib/users/factors/manage-authenticator-app";
import { beginTotpEnrollment } from "@/lib/users/factors/totp";
import { endSession } from "@/lib/users/sessions";
import { StepUpRequiredError } from "@/lib/users/step-up";

// Every user manages their own second factors and sessions (no role permission: it is their own account).

export type FactorState = { uri?: string; secret?: string; codes?: string[]; error?: string; stepUp?: boolean };

export async function startAuthenticatorApp(_prev: FactorState, _form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  const started = await beginTotpEnrollment(getDb(), user);
  return started ?? { error: "An authenticator app is already on. Remove it first to add another." };
}

export async function turnOnAuthenticatorApp(prev: FactorState, form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  const codes = await confirmAuthenticatorApp(
    getDb(),
    await actorOf(user),
    user.sessionId,
    String(form.get("code") ?? ""),
  );
  if (!codes) return { ...prev, codes: undefined, error: "Wrong code. Enter the 6-digit code the app shows now." };
  // No revalidation here: the page would re-render as "on" and drop the codes before they were seen.
  return { codes };
}

async function withStepUp(run: () => Promise<FactorState>): Promise<FactorState> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StepUpRequiredError) return { error: err.message, stepUp: true };
    throw err;
  }
}

export async function removeApp(_prev: FactorState, _form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  return withStepUp(async () => {
    await removeAuthenticatorApp(getDb(), await actorOf(user), user);
    revalidatePath("/dashboard/security");
    return {};
  });
}

export async function newRecoveryCodes(_prev: FactorState, _form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  return withStepUp(async () => {
    const codes = await renewRecoveryCodes(getDb(), await actorOf(user), user);
    revalidatePath("/dashboard/security");
    return codes ? { codes } : { error: "Turn on an authenticator app first." };
  });
}

export async function endOneSession(form: FormData): Promise<void> {
  const user = await requireActionUser();
  await endSession(getDb(), await actorOf(user), String(form.get("session") ?? ""));
  revalidatePath("/dashboard/security");
}
