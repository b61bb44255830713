import type { users } from "@/db/schema/users";

export type UserRow = typeof users.$inferSelect;

/** The public shape of a user: never the password hash. */
export function serializeUser(u: UserRow) {
  return {
    id: u.id,
    object: "user" as const,
    merchant: u.merchantId,
    email: u.email,
    role: u.role,
    created_at: u.createdAt.toISOString(),
  };
}
