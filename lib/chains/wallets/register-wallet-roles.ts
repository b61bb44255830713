import type { ChainConfig } from "@/lib/chains/chain-config";
import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { roleKey } from "./role-keys";
import { WALLET_ROLES, type WalletRole } from "./wallet-roles";

/**
 * Records the role addresses of a chain where every process can read them (the web refuses payouts to
 * them; `cli treasury show` lists them); returns them.
 * Run by the process holding the keys (the worker's outbound leader).
 */
export async function registerWalletRoles(
  db: Db,
  config: ChainConfig,
): Promise<{ role: WalletRole; address: string }[]> {
  const keys = await Promise.all(WALLET_ROLES.map((role) => roleKey(db, config.mode, config.chain, role)));
  for (const key of keys)
    await execute(
      db,
      `insert into wallet_roles (mode, chain, role, address, path) values ($1, $2, $3, $4, $5)
       on conflict (mode, chain, role) do update
       set address = excluded.address, path = excluded.path, updated_at = now()`,
      [config.mode, config.chain, key.role, key.address, key.path],
    );
  return keys.map((k) => ({ role: k.role, address: k.address }));
}
