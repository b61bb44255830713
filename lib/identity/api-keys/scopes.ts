/**
 * Key scopes: read and write per resource family, plus `sandbox:chains` (the chain-wide sandbox controls:
 * reorg, drop, freeze, congest), which the sandbox chains' every tenant shares, so only the operator's CLI
 * grants it and no key has it by default. `write` implies `read` of the same family (a key that may create
 * payouts may also look them up).
 */
export const RESOURCE_FAMILIES = [
  "payments",
  "payment_links",
  "balances",
  "payouts",
  "refunds",
  "customers",
  "deposits",
  "webhooks",
  "events",
] as const;
export type ResourceFamily = (typeof RESOURCE_FAMILIES)[number];
export const SANDBOX_CHAINS_SCOPE = "sandbox:chains";
export type Scope = `${ResourceFamily}:${"read" | "write"}` | typeof SANDBOX_CHAINS_SCOPE;

/** What a key gets unless created restricted: every resource scope, not the chain-wide sandbox controls. */
export const DEFAULT_SCOPES: Scope[] = RESOURCE_FAMILIES.flatMap((f) => [`${f}:read` as Scope, `${f}:write` as Scope]);

/** Every scope a key can hold. */
export const ALL_SCOPES: Scope[] = [...DEFAULT_SCOPES, SANDBOX_CHAINS_SCOPE];

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
