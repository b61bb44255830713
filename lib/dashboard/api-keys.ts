import { inTransaction, type Db } from "@/lib/db/client";
import { createApiKey } from "@/lib/keys/create-api-key";
import { listApiKeys } from "@/lib/keys/list-api-keys";
import type { Mode } from "@/lib/modes/mode";
import { type Actor, recordAudit } from "@/lib/users/audit";

/** Live keys need step-up (a second factor within 5 minutes), not built yet: the CLI makes them until then. */
export const LIVE_KEYS_NOTE =
  "Live keys are created with the CLI (npm run --silent cli -- keys create --mode live) until second factors are in.";

/** The merchant's keys of one mode, newest first (never a secret). */
export async function listModeKeys(db: Db, owner: { merchantId: string; mode: Mode }) {
  return (await listApiKeys(db, owner.merchantId)).filter((k) => k.mode === owner.mode);
}

/** A new key with every scope, its secret returned this once; audited in the same transaction. */
export async function createDashboardKey(db: Db, actor: Actor, mode: Mode) {
  return inTransaction(db, async (tx) => {
    const key = await createApiKey(tx, { merchantId: actor.merchantId, mode });
    await recordAudit(tx, actor, { action: "api_key.created", target: key.id, details: { mode } });
    return key;
  });
}
