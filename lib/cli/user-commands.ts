import { eq } from "drizzle-orm";
import { merchants } from "@/db/schema";
import { type Db, inTransaction } from "@/lib/db/client";
import { recordAudit } from "@/lib/users/audit";
import { createUser, UserInputError } from "@/lib/users/create-user";
import { isRole, USER_ROLES } from "@/lib/users/roles";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

/** Dashboard users (docs/DASHBOARD.md), created by the operator. */
export const USER_COMMANDS: Record<string, (db: Db, flags: Flags) => Promise<CommandResult>> = {
  async "users create"(db, flags) {
    const merchantId = required(flags, "merchant");
    const email = required(flags, "email");
    const role = required(flags, "role");
    if (!isRole(role)) throw new UsageError(`--role must be one of ${USER_ROLES.join(", ")}, got "${role}"`);
    const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
    if (!merchant) throw new UsageError(`no merchant ${merchantId}`);
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
};
