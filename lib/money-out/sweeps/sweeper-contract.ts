import type { Address } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";
import type { Db } from "@/lib/platform/db/client";
import { ensureContract } from "@/lib/money-out/outbound/ensure-contract";

/**
 * The sweeper contract of a (mode, chain, treasury, sweeper), deployed once through the outbound journal by
 * the sweeper (lib/money-out/outbound/ensure-contract.ts). Returns its address and the deployment a batch must
 * wait for (`after`), null once the code is there.
 */
export function ensureSweeperContract(
  db: Db,
  config: ChainConfig,
  treasury: string,
  sweeper: string,
): Promise<{ address: Address; after: string | null }> {
  return ensureContract(db, config, {
    name: "sweeper contract",
    ...sweeperContract(treasury, sweeper),
    deployer: { role: "sweeper", address: sweeper },
    otherwise: `set ${config.chain.toUpperCase()}_SWEEP_STRATEGY=topup`,
  });
}
