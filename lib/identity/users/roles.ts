import { USER_ROLES } from "@/db/schema/users";

export type Role = (typeof USER_ROLES)[number];
export { USER_ROLES };

/** Everything a dashboard page shows or an action changes is guarded by one of these. */
export const PERMISSIONS = [
  "balances:read",
  "payments:read",
  "payments:write",
  "links:read",
  "links:write",
  "payouts:read",
  "payouts:write",
  "payouts:approve",
  "refunds:read",
  "refunds:write",
  "customers:read",
  "customers:write",
  "deposits:read",
  "deposits:write",
  "keys:read",
  "keys:write",
  "webhooks:read",
  "webhooks:write",
  "events:read",
  "team:read",
  "team:write",
  "audit:read",
  "costs:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READ_ALL = PERMISSIONS.filter((p) => p.endsWith(":read") && p !== "audit:read" && p !== "costs:read");

/**
 * THE table of what each role may do (docs/DASHBOARD.md#roles). Owner: everything, including the team and the audit
 * log. Admin: everything but the team and the audit log. Both read the network fees (costs). Developer: keys, webhooks
 * and events, and reads payments, links, payouts, refunds, customers, deposits and balances. Viewer: reads only.
 * Every page and every server action asks `can()`.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((p) => p !== "team:write" && p !== "audit:read"),
  developer: [
    "balances:read",
    "payments:read",
    "links:read",
    "payouts:read",
    "refunds:read",
    "customers:read",
    "deposits:read",
    "keys:read",
    "keys:write",
    "webhooks:read",
    "webhooks:write",
    "events:read",
    "team:read",
  ],
  viewer: READ_ALL,
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isRole(value: string): value is Role {
  return (USER_ROLES as readonly string[]).includes(value);
}
