import type { Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { roleKey } from "./role-keys";
import type { WalletRole } from "./wallet-roles";

/**
 * A role's address: as the signing worker recorded it (`wallet_roles`), or derived here when this process
 * holds the keys (the sandbox seed, or the live seed / role key files); throws when neither is possible.
 */
export async function roleAddress(
  db: Db,
  mode: Mode,
  chain: Chain,
  role: WalletRole,
): Promise<{ address: string; path: string | null }> {
  const [row] = await query<{ address: string; path: string | null }>(
    db,
    "select address, path from wallet_roles where mode = $1 and chain = $2 and role = $3",
    [mode, chain, role],
  );
  if (row) return row;
  const key = await roleKey(db, mode, chain, role);
  return { address: key.address, path: key.path };
}
