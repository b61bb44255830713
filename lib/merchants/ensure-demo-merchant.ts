import { eq } from "drizzle-orm";
import { installationFacts } from "@/db/schema";
import { inTransaction, type Db } from "@/lib/db/client";
import { createUser } from "@/lib/users/create-user";
import { createMerchant } from "./create-merchant";

const FACT = "demo_merchant_id";

/**
 * On the first start of an installation, creates a demo merchant with its keys and a dashboard owner, and
 * returns the sandbox key and the owner's sign-in (the only time they can be shown). Later starts return
 * the existing id and no secrets. Safe under concurrent starts:
 * the fact row is claimed in the same transaction that creates the merchant.
 */
export interface DemoMerchant {
  merchantId: string;
  sandboxSecret: string | null;
  dashboard: { email: string; password: string } | null;
}

export async function ensureDemoMerchant(db: Db): Promise<DemoMerchant> {
  return inTransaction(db, async (tx) => {
    const claimed = await tx
      .insert(installationFacts)
      .values({ key: FACT, value: "pending" })
      .onConflictDoNothing()
      .returning();
    if (claimed.length === 0) {
      const [fact] = await tx.select().from(installationFacts).where(eq(installationFacts.key, FACT));
      return { merchantId: fact!.value, sandboxSecret: null, dashboard: null };
    }
    const created = await createMerchant(tx, { name: "Demo merchant", email: "demo@example.com" });
    await tx.update(installationFacts).set({ value: created.merchant.id }).where(eq(installationFacts.key, FACT));
    const owner = await createUser(tx, { merchantId: created.merchant.id, email: "demo@example.com", role: "owner" });
    return {
      merchantId: created.merchant.id,
      sandboxSecret: created.keys.find((k) => k.mode === "sandbox")!.secret,
      dashboard: { email: owner.user.email, password: owner.password },
    };
  });
}
