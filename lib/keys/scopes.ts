/**
 * Key scopes: read and write per resource family. A key has every scope unless created restricted.
 * `write` implies `read` of the same family (a key that may create payouts may also look them up).
 */
export const RESOURCE_FAMILIES = ["payments", "payment_links", "balances", "payouts", "webhooks", "events"] as const;
export type ResourceFamily = (typeof RESOURCE_FAMILIES)[number];
export type Scope = `${ResourceFamily}:${"read" | "write"}`;

export const ALL_SCOPES: Scope[] = RESOURCE_FAMILIES.flatMap((f) => [`${f}:read` as Scope, `${f}:write` as Scope]);

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as string[]).includes(value);
}

export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [family, access] = required.split(":");
  return access === "read" && granted.includes(`${family}:write`);
}

/** Parses a comma-separated list from the CLI or dashboard; throws with the offending value. */
export function parseScopes(csv: string): Scope[] {
  const values = csv
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (values.length === 0) throw new Error("--scopes needs at least one scope");
  for (const value of values) {
    if (!isScope(value)) throw new Error(`unknown scope "${value}"; valid scopes: ${ALL_SCOPES.join(", ")}`);
  }
  return [...new Set(values)] as Scope[];
}
