import { eq } from "drizzle-orm";
import { installationFacts } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { createUser } from "@/lib/identity/users/create-user";
import { createInvitation } from "@/lib/identity/users/invitations";
import { createMerchant } from "./create-merchant";

const FACT = "demo_merchant_id";
const EMAIL = "demo@example.com";

export interface DemoMerchant {
  merchantId: string;
  sandboxSecret: string | null;
  /** Sandbox-only installs: the owner's sign-in, shown once. */
  dashboard: { email: string; password: string } | null;
  /** Installs with live chains (`--demo`): the owner's one-time invitation token instead of a password. */
  invitation: { email: string; token: string } | null;
}

/**
 * On the first start of an installation that asks for it (docs/DASHBOARD.md#the-demo-merchant), creates a
 * demo merchant with its keys and a dashboard owner, and returns the sandbox key and how the owner gets in
 * (the only time they can be shown): a generated password on a sandbox-only install, a one-time invitation
 * where live chains are configured (a password in a production log would be an owner account for whoever
 * reads it). Never a live secret. Later starts return the existing id and no secrets. Safe under concurrent
 * starts: the fact row is claimed in the same transaction that creates the merchant.
 */
export async function ensureDemoMerchant(
  db: Db,
  opts: { owner: "password" | "invitation"; sandboxChains: boolean },
): Promise<DemoMerchant> {
  return inTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(installationFacts)
      .values({ key: FACT, value: "pending" })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) {
      const [fact] = await tx.select().from(installationFacts).where(eq(installationFacts.key, FACT));
      return { merchantId: fact!.value, sandboxSecret: null, dashboard: null, invitation: null };
    }
    const created = await createMerchant(tx, {
      name: "Demo merchant",
      email: EMAIL,
      sandboxChains: opts.sandboxChains,
    });
    const merchantId = created.merchant.id;
    await tx.update(installationFacts).set({ value: merchantId }).where(eq(installationFacts.key, FACT));
    const sandboxSecret = created.keys.find((k) => k.mode === "sandbox")!.secret;
    if (opts.owner === "invitation") {
      const operator = { merchantId, userId: null, ip: null, userAgent: "npm start" };
      const { token } = await createInvitation(tx, operator, { email: EMAIL, role: "owner" });
      return { merchantId, sandboxSecret, dashboard: null, invitation: { email: EMAIL, token } };
    }
    const owner = await createUser(tx, { merchantId, email: EMAIL, role: "owner" });
    return {
      merchantId,
      sandboxSecret,
      dashboard: { email: owner.user.email, password: owner.password },
      invitation: null,
    };
  });
}
