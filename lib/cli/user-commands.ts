import { eq } from "drizzle-orm";
import { merchants } from "@/db/schema";
import { config } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { recordAudit } from "@/lib/identity/users/audit";
import { createUser, UserInputError } from "@/lib/identity/users/create-user";
import { createInvitation, INVITE_PATH } from "@/lib/identity/users/invitations";
import { isRole, type Role, USER_ROLES } from "@/lib/identity/users/roles";
import { TeamRuleError } from "@/lib/identity/users/team-errors";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

/** --merchant (which must exist), --email and --role of a user to create or invite. */
async function memberFlags(db: Db, flags: Flags): Promise<{ merchantId: string; email: string; role: Role }> {
  const merchantId = required(flags, "merchant");
  const email = required(flags, "email");
  const role = required(flags, "role");
  if (!isRole(role)) throw new UsageError(`--role must be one of ${USER_ROLES.join(", ")}, got "${role}"`);
  const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) throw new UsageError(`no merchant ${merchantId}`);
  return { merchantId, email, role };
}

/** Dashboard users (docs/DASHBOARD.md), created or invited by the operator. */
export const USER_COMMANDS: Record<string, (db: Db, flags: Flags) => Promise<CommandResult>> = {
  async "users create"(db, flags) {
    const { merchantId, email, role } = await memberFlags(db, flags);
    try {
      const created = await inTransaction(db, async (tx) => {
        const made = await createUser(tx, { merchantId, email, role });
        await recordAudit(
          tx,
          { merchantId, userId: null, ip: null, userAgent: "cli" },
          { action: "user.created", target: made.user.id, details: { email: made.user.email, role } },
        );
        return made;
      });
      return {
        json: created,
        text: [
          `User ${created.user.id} <${created.user.email}> (${role}) of ${merchantId}`,
          `Password (shown only this once): ${created.password}`,
        ],
      };
    } catch (err) {
      if (err instanceof UserInputError) throw new UsageError(err.message);
      throw err;
    }
  },
  async "users invite"(db, flags) {
    const { merchantId, email, role } = await memberFlags(db, flags);
    try {
      // The operator invites (no user: no second factor to ask for); the person chooses their own password.
      const operator = { merchantId, userId: null, ip: null, userAgent: "cli" };
      const { invitation, token } = await createInvitation(db, operator, { email, role });
      const link = `${config().publicBaseUrl}${INVITE_PATH}${token}`;
      return {
        json: { invitation, link },
        text: [
          `Invitation ${invitation.id} for <${invitation.email}> (${role}) of ${merchantId}`,
          `Link (works once, until ${invitation.expiresAt.slice(0, 10)}; shown only this once): ${link}`,
        ],
      };
    } catch (err) {
      if (err instanceof TeamRuleError) throw new UsageError(err.message);
      throw err;
    }
  },
};
