import { randomBytes } from "node:crypto";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { DashboardActor } from "@/lib/identity/auth/dashboard-actor";
import type { Mode } from "@/lib/kernel/mode";
import { createUser } from "@/lib/identity/users/create-user";
import type { Role } from "@/lib/identity/users/roles";

/** A real user of `merchantId` with `role`, as the actor of dashboard mutations in `mode`. */
export async function newActor(merchantId: string, role: Role, mode: Mode = "sandbox"): Promise<DashboardActor> {
  const email = `${role}.${randomBytes(4).toString("hex")}@shop.test`;
  const { user } = await createUser(getDb(), { merchantId, email, role });
  return { merchantId, userId: user.id, role, mode, ip: "10.1.2.3", userAgent: "vitest" };
}

/** The audit rows of a merchant with one action, oldest first. */
export const auditRows = (merchantId: string, action: string) =>
  query<{ user_id: string; target: string; details: Record<string, unknown> | null; ip: string }>(
    getDb(),
    "select user_id, target, details, ip from audit_log where merchant_id = $1 and action = $2 order by created_at",
    [merchantId, action],
  );
