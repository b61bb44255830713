"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { actorOf, requireActionUser, SIGN_IN_PATH } from "@/lib/identity/auth/guard";
import { MODE_COOKIE } from "@/lib/identity/auth/mode";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { MODES, type Mode } from "@/lib/kernel/mode";
import { endSession, signOutEverywhere } from "@/lib/identity/users/sessions";

// Server actions of the dashboard's frame. Next refuses an action whose Origin is not the request's Host
// (its CSRF check); each one then asks the guard for the session (and permission) before doing anything.

const secure = () => config().publicBaseUrl.startsWith("https://");

async function dropSessionCookie(): Promise<void> {
  const jar = await cookies();
  for (const name of ["next-auth.session-token", "__Secure-next-auth.session-token"])
    jar.set(name, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax", secure: name.startsWith("__") });
}

export async function switchMode(formData: FormData): Promise<void> {
  await requireActionUser();
  const mode = String(formData.get("mode"));
  if ((MODES as readonly string[]).includes(mode))
    (await cookies()).set(MODE_COOKIE, mode as Mode, {
      path: "/dashboard",
      httpOnly: true,
      sameSite: "lax",
      secure: secure(),
    });
  redirect("/dashboard");
}

export async function signOut(): Promise<void> {
  const user = await requireActionUser();
  // The session row ends here: the cookie is worthless even if a copy of it survives.
  await endSession(getDb(), await actorOf(user), user.sessionId);
  await dropSessionCookie();
  redirect(SIGN_IN_PATH);
}

export async function signOutOfAllSessions(): Promise<void> {
  const user = await requireActionUser();
  await signOutEverywhere(getDb(), await actorOf(user));
  await dropSessionCookie();
  redirect(SIGN_IN_PATH);
}
