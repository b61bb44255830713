"use server";

import { revalidatePath } from "next/cache";
import { type ActionContext, dashboardAction } from "@/app/dashboard/dashboard-action";
import { config } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { mailConfigured, sendMail } from "@/lib/platform/mail/send-mail";
import { changeMemberRole } from "@/lib/identity/users/change-member-role";
import { invitationEmail } from "@/lib/identity/users/invitation-email";
import { createInvitation, INVITE_PATH, revokeInvitation } from "@/lib/identity/users/invitations";
import { removeMember } from "@/lib/identity/users/remove-member";
import { isRole } from "@/lib/identity/users/roles";
import type { SessionUser } from "@/lib/identity/users/sessions";
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
 * A team:write action after step-up (docs/DASHBOARD.md#the-team): whoever holds an owner's session must not be
 * able to make themselves a member. A refusal the user can act on comes back as `error` (with `stepUp` when
 * confirming the second factor lets it through), anything else throws.
 */
const OWNER = { permission: "team:write", stepUp: true, expected: [TeamRuleError, TeamNotFoundError] } as const;

const typedOf = (form: FormData) => ({ email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") });

/** Invites an email with a role: the one-time link is shown, and emailed when SMTP is configured. */
export const inviteMember = dashboardAction<InviteState>(
  { ...OWNER, refused: (refusal, form) => ({ ...refusal, typed: typedOf(form) }) },
  async ({ form, actor, user }) => {
    const typed = typedOf(form);
    const result = await invite(actor, user, typed);
    return result.error ? { ...result, typed } : result;
  },
);

async function invite(
  actor: ActionContext["actor"],
  user: SessionUser,
  { email: typedEmail, role }: { email: string; role: string },
): Promise<InviteState> {
  if (!isRole(role)) return { error: "Choose a role." };
  const { invitation, token } = await createInvitation(getDb(), actor, { email: typedEmail, role });
  const link = `${config().publicBaseUrl}${INVITE_PATH}${token}`;
  revalidatePath("/dashboard/team");
  if (!mailConfigured()) return { link, email: invitation.email };
  try {
    const merchantName = user.merchantName;
    await sendMail({
      to: invitation.email,
      ...invitationEmail({ merchantName, role, link, expiresAt: invitation.expiresAt }),
    });
    return { link, email: invitation.email, mailed: true };
  } catch (err) {
    return { link, email: invitation.email, mailError: err instanceof Error ? err.message : String(err) };
  }
}

export const revokeInvite = dashboardAction<MemberState>(OWNER, async ({ text, actor }) => {
  await revokeInvitation(getDb(), actor, text("invitation"));
  revalidatePath("/dashboard/team");
  return { done: "Invitation revoked." };
});

const keysRevoked = (ids: string[]) => (ids.length === 0 ? "" : ` API keys of theirs revoked: ${ids.join(", ")}.`);

export const changeRole = dashboardAction<MemberState>(OWNER, async ({ text, actor }) => {
  const role = text("role");
  if (!isRole(role)) return { error: "Choose a role." };
  const revoked = await changeMemberRole(getDb(), actor, { userId: text("member"), role });
  revalidatePath("/dashboard/team");
  return { done: `Role changed to ${role}.${keysRevoked(revoked)}` };
});

export const removeTeamMember = dashboardAction<MemberState>(OWNER, async ({ text, actor }) => {
  const revoked = await removeMember(getDb(), actor, text("member"));
  revalidatePath("/dashboard/team");
  return { done: `Member removed.${keysRevoked(revoked)}` };
});
