"use server";

import { redirect } from "next/navigation";
import { actorOf, requireActionUser } from "@/lib/auth/guard";
import { getDb } from "@/lib/db/client";
import { waitMessage } from "@/lib/users/sign-in-messages";
import { stepUpWithCode } from "@/lib/users/step-up";
import { safeNextPath } from "@/lib/users/safe-next-path";

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
