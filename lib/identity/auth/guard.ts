import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { getDb } from "@/lib/platform/db/client";
import type { Actor } from "@/lib/identity/users/audit";
import { can, type Permission } from "@/lib/identity/users/roles";
import { loadSessionUser, type SessionUser } from "@/lib/identity/users/sessions";
import { authOptions } from "./auth-options";

export const SIGN_IN_PATH = "/dashboard/sign-in";

/** The signed-in user of this request, or null: no session, an expired one, or one signed out everywhere. */
export async function currentUser(): Promise<SessionUser | null> {
  const session = (await getServerSession(authOptions())) as { uid?: unknown; sv?: unknown; sid?: unknown } | null;
  if (typeof session?.uid !== "string" || typeof session.sv !== "number" || typeof session.sid !== "string")
    return null;
  return loadSessionUser(getDb(), { uid: session.uid, sv: session.sv, sid: session.sid });
}

/**
 * Every dashboard page starts with this: no session → the sign-in page; a role without the permission → the
 * 403 page.
 */
export async function requirePageUser(permission?: Permission): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(SIGN_IN_PATH);
  if (permission && !can(user.role, permission)) forbidden();
  return user;
}

export class ForbiddenActionError extends Error {}

/**
 * Every server action starts with this (Next has already checked the request's Origin against its Host):
 * no session → the sign-in page; a role without the permission → an error the action reports, nothing done.
 */
export async function requireActionUser(permission?: Permission): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(SIGN_IN_PATH);
  if (permission && !can(user.role, permission))
    throw new ForbiddenActionError(`Your role (${user.role}) does not allow this.`);
  return user;
}

/** Who is acting and from where, for the audit log. */
export async function actorOf(user: SessionUser): Promise<Actor & { userId: string }> {
  const h = await headers();
  return { merchantId: user.merchantId, userId: user.id, ip: h.get("x-client-ip"), userAgent: h.get("user-agent") };
}
