"use server";

import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { redirect } from "next/navigation";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { getDb } from "@/lib/platform/db/client";
import { waitMessage } from "@/lib/identity/users/sign-in-messages";
import { passkeyAssertionOptions } from "@/lib/identity/users/factors/passkeys";
import { stepUpWithCode } from "@/lib/identity/users/step-up";
import { stepUpWithPasskey } from "@/lib/identity/users/step-up-with-passkey";
import { safeNextPath } from "@/lib/identity/users/safe-next-path";

export type StepUpState = { error?: string };

/** Proves a second factor for this session, then returns to the page that asked for it. */
export async function stepUp(_prev: StepUpState, form: FormData): Promise<StepUpState> {
  const user = await requireActionUser();
  const result = await stepUpWithCode(getDb(), await actorOf(user), {
    email: user.email,
    sessionId: user.sessionId,
    code: String(form.get("code") ?? ""),
  });
  if (!result.ok)
    return {
      error:
        result.reason === "limited"
          ? waitMessage(result.waitMs)
          : "Wrong code. Enter the current code from your authenticator app, or an unused recovery code.",
    };
  redirect(safeNextPath(String(form.get("next") ?? "")));
}

/** A step-up challenge that only this user's passkeys can answer. */
export async function stepUpPasskeyOptions() {
  const user = await requireActionUser();
  return passkeyAssertionOptions(getDb(), { purpose: "step_up", userId: user.id });
}

/** Proves a passkey for this session; the page then goes back to `next` (returned, checked). */
export async function stepUpPasskey(
  challengeId: string,
  response: string,
  next: string,
): Promise<StepUpState & { next?: string }> {
  const user = await requireActionUser();
  let parsed: AuthenticationResponseJSON;
  try {
    parsed = JSON.parse(response) as AuthenticationResponseJSON;
  } catch {
    return { error: "That passkey was not accepted. Try again." };
  }
  const ok = await stepUpWithPasskey(getDb(), await actorOf(user), {
    sessionId: user.sessionId,
    challengeId,
    response: parsed,
  });
  if (!ok) return { error: "That passkey was not accepted. Try again." };
  return { next: safeNextPath(next) };
}
