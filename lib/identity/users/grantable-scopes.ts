import { ALL_SCOPES, type Scope } from "@/lib/identity/api-keys/scopes";
import { can, type Permission, type Role } from "./roles";

/**
 * THE table of what each API key scope lets a key do, as the dashboard permission a user needs to give it
 * (docs/DASHBOARD.md#api-keys): a key never carries more than its creator may do. `balances:write` and
 * `events:write` serve no endpoint yet; they are mapped to the permission their future use would need
 * (moving balance, redelivering events). `sandbox:chains` (null) is granted by the operator's CLI only.
 */
export const SCOPE_PERMISSION: Record<Scope, Permission | null> = {
  "payments:read": "payments:read",
  "payments:write": "payments:write",
  "payment_links:read": "links:read",
  "payment_links:write": "links:write",
  "balances:read": "balances:read",
  "balances:write": "payouts:write",
  "payouts:read": "payouts:read",
  "payouts:write": "payouts:write",
  "refunds:read": "refunds:read",
  "refunds:write": "refunds:write",
  "customers:read": "customers:read",
  "customers:write": "customers:write",
  "deposits:read": "deposits:read",
  "deposits:write": "deposits:write",
  "webhooks:read": "webhooks:read",
  "webhooks:write": "webhooks:write",
  "events:read": "events:read",
  "events:write": "webhooks:write",
  "sandbox:chains": null,
};

function grantable(role: Role, scope: string): boolean {
  const permission = SCOPE_PERMISSION[scope as Scope];
  return permission !== undefined && permission !== null && can(role, permission);
}

/** The scopes a user of this role may give a key (the dashboard's checkboxes). */
export function grantableScopes(role: Role): Scope[] {
  return ALL_SCOPES.filter((scope) => grantable(role, scope));
}

/** The scopes of `scopes` this role may not give (an unknown one included): empty when all are allowed. */
export function scopesBeyondRole(role: Role, scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !grantable(role, scope));
}

export class KeyScopeError extends Error {}

/** Throws KeyScopeError naming the scopes this role may not hold in a key it creates or rolls. */
export function requireGrantable(role: Role, scopes: readonly string[], doing: "create" | "roll"): void {
  const beyond = scopesBeyondRole(role, scopes);
  if (beyond.length === 0) return;
  const what = doing === "create" ? "give a key" : "roll a key with";
  throw new KeyScopeError(`Your role (${role}) cannot ${what} these scopes: ${beyond.join(", ")}.`);
}
