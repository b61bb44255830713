import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { SANDBOX_CHAINS_SCOPE } from "./scopes";

/**
 * Whether the operator let this merchant drive the shared sandbox chains (reorg, drop, congest, freeze): it
 * holds a working sandbox key with `sandbox:chains`, which only the CLI gives (`merchants create
 * --sandbox-chains`, `keys create --scopes …`). The dashboard's chain-wide controls ask the same grant the API does.
 */
export async function hasSandboxChainGrant(db: Db, merchantId: string): Promise<boolean> {
  const [row] = await query<{ granted: boolean }>(
    db,
    `select exists (select 1 from api_keys where merchant_id = $1 and mode = 'sandbox' and scopes @> array[$2]::text[]
       and (revoked_at is null or revoked_at > now())) as granted`,
    [merchantId, SANDBOX_CHAINS_SCOPE],
  );
  return row!.granted;
}
