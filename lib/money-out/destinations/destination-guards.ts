import { chainConfig } from "@/lib/chains/chain-config";
import { CHAIN_FAMILY, type Chain } from "@/lib/chains/chains";
import { watchKey } from "@/lib/chains/connect/watch-key";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { ownContracts } from "@/lib/chains/connect/chain-families";

/**
 * Destinations a payout must never have (400 on `to_address`), checked in the database: the token contract
 * itself and the contracts the service deploys (tokens sent to them are lost), and the service's own deposit,
 * treasury and sweeper addresses (a payout to itself would move nothing but fees, and into a deposit address
 * would look like a payment).
 */
export async function ownDestinationProblem(db: Db, mode: Mode, chain: Chain, to: string): Promise<string | null> {
  const config = await chainConfig(db, mode, chain);
  const key = watchKey(chain, to);
  if (config && watchKey(chain, config.tokenAddress) === key)
    return (
      "to_address is the USDT token contract itself: " +
      "tokens sent there are lost; give the recipient's wallet address"
    );
  const [deposit] = await query(db, "select 1 from payments where mode = $1 and watch_key = $2 limit 1", [mode, key]);
  if (deposit) return "to_address is one of this service's own deposit addresses; give the recipient's wallet address";
  const roles = await query<{ chain: Chain; role: string; address: string }>(
    db,
    "select chain, role, address from wallet_roles where mode = $1",
    [mode],
  );
  const own = roles.find((r) => CHAIN_FAMILY[r.chain] === CHAIN_FAMILY[chain] && watchKey(r.chain, r.address) === key);
  if (own) return `to_address is this service's own ${own.role} address; give the recipient's wallet address`;
  const family = roles.filter((r) => CHAIN_FAMILY[r.chain] === CHAIN_FAMILY[chain]);
  if (ownContracts(chain, family).some((address) => watchKey(chain, address) === key))
    return (
      "to_address is one of this service's own contracts: " +
      "USDT sent there cannot be moved again; give the recipient's wallet address"
    );
  return null;
}
