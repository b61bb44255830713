"use server";

import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import {
  confirmAuthenticatorApp,
  removeAuthenticatorApp,
  renewRecoveryCodes,
} from "@/lib/identity/users/factors/manage-authenticator-app";
import { addPasskey, removePasskey } from "@/lib/identity/users/factors/manage-passkeys";
import { checkMayAddFactor } from "@/lib/identity/users/factors/may-add-factor";
import { passkeyRegistrationOptions } from "@/lib/identity/users/factors/passkeys";
import { beginTotpEnrollment } from "@/lib/identity/users/factors/totp";
import { endSession, type SessionUser } from "@/lib/identity/users/sessions";
import { STEP_UP_MESSAGE } from "@/lib/identity/users/step-up";

// Every user manages their own second factors and sessions (no role permission: it is their own account).

export type FactorState = {
  uri?: string;
  secret?: string;
  codes?: string[];
  error?: string;
  /** The error belongs next to the password field. */
  field?: "password";
  stepUp?: boolean;
};

/** Why adding a factor is refused now (step-up first, or the password), as the forms show it; null: go on. */
async function addFactorRefusal(user: SessionUser, form: FormData): Promise<FactorState | null> {
  const refusal = await checkMayAddFactor(getDb(), user, {
    password: String(form.get("password") ?? ""),
    ip: (await actorOf(user)).ip,
  });
  if (!refusal) return null;
  return refusal.reason === "step_up"
    ? { error: STEP_UP_MESSAGE, stepUp: true }
    : { error: refusal.message, field: "password" };
}

export async function startAuthenticatorApp(_prev: FactorState, form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  const refused = await addFactorRefusal(user, form);
  if (refused) return refused;
  const started = await beginTotpEnrollment(getDb(), user);
  return started ?? { error: "An authenticator app is already on. Remove it first to add another." };
}

export type PasskeyOptions = FactorState & {
  ceremony?: { challengeId: string; options: PublicKeyCredentialCreationOptionsJSON };
};

/** The challenge for adding a passkey, after the same checks as any new factor. */
export async function passkeyRegistration(form: FormData): Promise<PasskeyOptions> {
  const user = await requireActionUser();
  const refused = await addFactorRefusal(user, form);
  if (refused) return refused;
  return { ceremony: await passkeyRegistrationOptions(getDb(), user) };
}

/** Stores the passkey the browser made for that challenge; a first factor's recovery codes come back once. */
export async function savePasskey(challengeId: string, response: string, name: string): Promise<FactorState> {
  const user = await requireActionUser();
  let parsed: RegistrationResponseJSON;
  try {
    parsed = JSON.parse(response) as RegistrationResponseJSON;
  } catch {
    return { error: "The passkey could not be added. Try again." };
  }
  const added = await addPasskey(getDb(), await actorOf(user), { challengeId, response: parsed, name });
  if (!added) return { error: "The passkey could not be verified. Try again." };
  revalidatePath("/dashboard/security");
  return added.codes.length > 0 ? { codes: added.codes } : {};
}

export async function removeOnePasskey(_prev: FactorState, form: FormData): Promise<FactorState> {
  const user = await requireActionUser();
  return withStepUp(async () => {
    await removePasskey(getDb(), await actorOf(user), user, String(form.get("passkey") ?? ""));
    revalidatePath("/dashboard/security");
    return {};
  });
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
  revalidatePath("/dashboard/security");
  return { codes };
}

async function withStepUp(run: () => Promise<FactorState>): Promise<FactorState> {
  try {
    return await run();
  } catch (err) {
    return refusalOf(err);
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
