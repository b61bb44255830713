/**
 * The two worlds a merchant works in: `sandbox` (local or emulated chains, test money) and `live` (real
 * chains). Every key, object, balance and event belongs to exactly one.
 */
export const MODES = ["sandbox", "live"] as const;
export type Mode = (typeof MODES)[number];
