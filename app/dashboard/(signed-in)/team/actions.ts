"use server";

import { revalidatePath } from "next/cache";
import { refusalOf } from "@/lib/identity/auth/action-actor";
import { actorOf, requireActionUser } from "@/lib/identity/auth/guard";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { mailConfigured, sendMail } from "@/lib/platform/mail/send-mail";
import { changeMemberRole } from "@/lib/identity/users/change-member-role";
import { invitationEmail } from "@/lib/identity/users/invitation-email";
import { createInvitation, INVITE_PATH, revokeInvitation } from "@/lib/identity/users/invitations";
import { removeMember } from "@/lib/identity/users/remove-member";
import { isRole } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";
import { TeamNotFoundError, TeamRuleError } from "@/lib/identity/users/team-errors";

export type InviteState = {
  error?: string;
  link?: string;
  email?: string;
  /** After a refusal, what was typed, so the form shows it again (React resets a form after its action). */
  typed?: { email: string; role: string };
  mailed?: boolean;
  mailError?: string;
  stepUp?: boolean;
};
export type MemberState = { error?: string; done?: string; stepUp?: boolean };

/**
 * Runs a team:write action after step-up (docs/DASHBOARD.md#the-team): whoever holds an owner's session
 * must not be able to make themselves a member. A refusal the user can act on comes back as `error` (with
 * `stepUp` when confirming the second factor lets it through), anything else throws.
 */
async function asOwner<S>(
  run: (actor: Awaited<ReturnType<typeof actorOf>>, user: SessionUser) => Promise<S>,
): Promise<S | { error: string; stepUp?: boolean }> {
  try {
    const user = await requireActionUser("team:write");
    requireStepUp(user);
    return await run(await actorOf(user), user);
  } catch (err) {
    return refusalOf(err, [TeamRuleError, TeamNotFoundError]);
  }
}

/** Invites an email with a role: the one-time link is shown, and emailed when SMTP is configured. */
export async function inviteMember(_prev: InviteState, form: FormData): Promise<InviteState> {
  const typed = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") };
  const result = await invite(typed);
  return result.error ? { ...result, typed } : result;
}

async function invite({ email: typedEmail, role }: { email: string; role: string }): Promise<InviteState> {
  if (!isRole(role)) return { error: "Choose a role." };
  return asOwner(async (actor, user) => {
    const merchantName = user.merchantName;
    const { invitation, token } = await createInvitation(getDb(), actor, {
      email: typedEmail,
      role,
    });
    const link = `${config().publicBaseUrl}${INVITE_PATH}${token}`;
    revalidatePath("/dashboard/team");
    if (!mailConfigured()) return { link, email: invitation.email };
    try {
      await sendMail({
        to: invitation.email,
        ...invitationEmail({ merchantName, role, link, expiresAt: invitation.expiresAt }),
      });
      return { link, email: invitation.email, mailed: true };
    } catch (err) {
      return { link, email: invitation.email, mailError: err instanceof Error ? err.message : String(err) };
    }
  });
}

export async function revokeInvite(_prev: MemberState, form: FormData): Promise<MemberState> {
  return asOwner(async (actor) => {
    await revokeInvitation(getDb(), actor, String(form.get("invitation") ?? ""));
    revalidatePath("/dashboard/team");
    return { done: "Invitation revoked." };
  });
}

const keysRevoked = (ids: string[]) => (ids.length === 0 ? "" : ` API keys of theirs revoked: ${ids.join(", ")}.`);

export async function changeRole(_prev: MemberState, form: FormData): Promise<MemberState> {
  const role = String(form.get("role") ?? "");
  if (!isRole(role)) return { error: "Choose a role." };
  return asOwner(async (actor) => {
    const revoked = await changeMemberRole(getDb(), actor, { userId: String(form.get("member") ?? ""), role });
    revalidatePath("/dashboard/team");
    return { done: `Role changed to ${role}.${keysRevoked(revoked)}` };
  });
}

export async function removeTeamMember(_prev: MemberState, form: FormData): Promise<MemberState> {
  return asOwner(async (actor) => {
    const revoked = await removeMember(getDb(), actor, String(form.get("member") ?? ""));
    revalidatePath("/dashboard/team");
    return { done: `Member removed.${keysRevoked(revoked)}` };
  });
}
