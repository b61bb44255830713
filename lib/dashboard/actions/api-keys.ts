import { inTransaction, type Db } from "@/lib/platform/db/client";
import { lockOwnApiKey } from "@/lib/identity/api-keys/api-key-owner";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { listApiKeys } from "@/lib/identity/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { KeyNotFoundError, rotateApiKey } from "@/lib/identity/api-keys/rotate-api-key";
import { ALL_SCOPES, isScope, type Scope } from "@/lib/identity/api-keys/scopes";
import { grantableScopes, requireGrantable } from "@/lib/identity/users/grantable-scopes";
import type { Mode } from "@/lib/kernel/mode";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import type { SessionUser } from "@/lib/identity/users/sessions";
import { requireStepUp } from "@/lib/identity/users/step-up";

type Owner = { merchantId: string; mode: Mode };
type Stepper = Pick<SessionUser, "secondFactorAt">;
type Creator = Pick<SessionUser, "secondFactorAt" | "role">;

/** How long the old secret keeps working after a roll: the dashboard's choices (now, 1 hour, 24 hours). */
export const ROLL_OVERLAPS = { now: 0, "1h": 3_600_000, "24h": 86_400_000 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;
export const isRollOverlap = (v: string): v is RollOverlap => Object.hasOwn(ROLL_OVERLAPS, v);

/** The merchant's keys of one mode, newest first (never a secret). */
export async function listModeKeys(db: Db, owner: Owner) {
  return (await listApiKeys(db, owner.merchantId)).filter((k) => k.mode === owner.mode);
}

/** The checked scopes of a form; none checked is refused (a key that can do nothing is a mistake). */
export function scopesFromForm(values: string[]): Scope[] | null {
  const scopes = ALL_SCOPES.filter((s) => values.includes(s) && isScope(s));
  return scopes.length ? scopes : null;
}

/** Live keys move real money: they need step-up. Sandbox keys do not. */
function stepUpFor(mode: Mode, user: Stepper) {
  if (mode === "live") requireStepUp(user);
}

/**
 * A new key with the given scopes (default: all the creator's role may give), its secret returned this once;
 * audited in the same transaction. A scope beyond the creator's role is refused (KeyScopeError).
 */
export async function createDashboardKey(db: Db, actor: Actor, user: Creator, mode: Mode, requested?: Scope[]) {
  const scopes = requested ?? grantableScopes(user.role);
  requireGrantable(user.role, scopes, "create");
  stepUpFor(mode, user);
  return inTransaction(db, async (tx) => {
    const key = await createApiKey(tx, { merchantId: actor.merchantId, mode, scopes, createdByUserId: actor.userId });
    await recordAudit(tx, actor, { action: "api_key.created", target: key.id, details: { mode, scopes: key.scopes } });
    return key;
  });
}

/**
 * Rolls a key: a new secret (shown once, same scopes); the old one works until the chosen overlap ends.
 * Audited. The roller gets the secret, so a key with scopes beyond their role is refused (KeyScopeError).
 */
export async function rollDashboardKey(
  db: Db,
  actor: Actor,
  user: Creator,
  owner: Owner,
  keyId: string,
  overlap: RollOverlap,
) {
  stepUpFor(owner.mode, user);
  return inTransaction(db, async (tx) => {
    const old = await lockOwnApiKey(tx, owner, keyId);
    if (old.revokedAt) throw new KeyNotFoundError(`Key ${keyId} is already rolled or revoked.`);
    requireGrantable(user.role, old.scopes, "roll");
    const rolled = await rotateApiKey(tx, keyId, { overlapMs: ROLL_OVERLAPS[overlap], createdByUserId: actor.userId });
    await recordAudit(tx, actor, {
      action: "api_key.rolled",
      target: keyId,
      details: { new_key: rolled.id, old_key_expires_at: rolled.old_key_expires_at },
    });
    return rolled;
  });
}

/** Revokes a key now (a rolled key in its overlap too). Audited. */
export async function revokeDashboardKey(db: Db, actor: Actor, user: Stepper, owner: Owner, keyId: string) {
  stepUpFor(owner.mode, user);
  return inTransaction(db, async (tx) => {
    await lockOwnApiKey(tx, owner, keyId);
    const key = await revokeApiKey(tx, keyId);
    await recordAudit(tx, actor, { action: "api_key.revoked", target: keyId, details: { mode: owner.mode } });
    return key;
  });
}
