import type { Role } from "./roles";

/** The invitation email: who invites, to what, the link and when it expires. */
export function invitationEmail(input: { merchantName: string; role: Role; link: string; expiresAt: string }) {
  return {
    subject: `You are invited to ${input.merchantName}'s payments dashboard`,
    text: [
      `You are invited to join ${input.merchantName} on its payments dashboard as ${input.role}.`,
      "",
      `Accept the invitation and choose your password: ${input.link}`,
      "",
      `The link works once and expires on ${input.expiresAt.slice(0, 10)}. ` +
        `If you did not expect it, ignore this email.`,
    ].join("\n"),
  };
}
