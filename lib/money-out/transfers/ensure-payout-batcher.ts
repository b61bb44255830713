import { type Address, createPublicClient, http } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import {
  ALLOWANCE_LOW_WATER,
  approveBatcherData,
  DELEGATED_PAYOUT_BATCHER,
  payoutBatcherContract,
  readAllowance,
} from "@/lib/chains/evm/payout-batcher";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { ensureContract } from "@/lib/money-out/outbound/ensure-contract";
import { ensureSetupCall } from "@/lib/money-out/outbound/ensure-setup-call";

/** The contract a round's batches pay through, and the setup they wait for (null when done). */
export type PayoutBatcher = { address: Address; after: string | null };

/**
 * The PayoutBatcher of a (mode, chain) and the treasury set up to pay through it, each step once through the
 * outbound journal, by the treasury (which pays the payouts' gas anyway):
 * 1. the contract deployed (CREATE2);
 * 2. the treasury's EIP-7702 delegation cleared, if it has one (the first PayoutBatcher's design): nodes keep a
 *    delegated account to one transaction in flight. Only once no batch of that design is open, as those
 *    need the delegation to pay (a call to an undelegated treasury would succeed and pay no one);
 * 3. the treasury's allowance for the contract.
 * Returns the contract and a step still to be confirmed, which the round's batches wait for. Network reads:
 * outside any transaction.
 */
export async function ensurePayoutBatcher(db: Db, config: ChainConfig): Promise<PayoutBatcher> {
  const treasury = await roleAddress(db, config.mode, config.chain, "treasury");
  const signer = { role: "treasury" as const, address: treasury.address };
  const deployed = await ensureContract(db, config, {
    name: "PayoutBatcher",
    ...payoutBatcherContract(),
    deployer: signer,
    otherwise: `set ${config.chain.toUpperCase()}_PAYOUT_STRATEGY=single`,
  });
  const { address } = deployed;
  const client = createPublicClient({
    transport: http(config.rpcUrl, { retryCount: 1, timeout: 15_000 }),
    cacheTime: 0,
  });
  const [code, allowance] = await Promise.all([
    client.getCode({ address: treasury.address as Address }),
    readAllowance(client, config.tokenAddress, treasury.address, address),
  ]);
  // Neither waits for the other nor for the deployment (an allowance can be given to an address before its code
  // is there), so all three can land in one block; the driver signs no batch before the contract's code and
  // the allowance are on chain.
  const undelegation =
    code && code !== "0x" && !(await delegatedBatchesOpen(db, config))
      ? await ensureSetupCall(db, config, {
          purpose: "undelegate",
          subject: treasury.address,
          signer,
          to: treasury.address,
        })
      : null;
  const approval =
    allowance < ALLOWANCE_LOW_WATER
      ? await ensureSetupCall(db, config, {
          purpose: "approve",
          subject: address,
          signer,
          to: config.tokenAddress,
          evmData: approveBatcherData(address),
        })
      : null;
  // Batches wait for the undelegation first, so that it finds the treasury with nothing in flight.
  return { address, after: undelegation ?? approval ?? deployed.after };
}

/** Whether batches of the delegated design are still to be sent or settled (they need the delegation). */
async function delegatedBatchesOpen(db: Db, config: ChainConfig): Promise<boolean> {
  const rows = await query(
    db,
    `select 1 from outbound_transactions
      where mode = $1 and chain = $2 and purpose = 'payout_batch' and status not in ('confirmed','reverted','expired')
        and lower(options->'payoutBatch'->>'contract') = $3 limit 1`,
    [config.mode, config.chain, DELEGATED_PAYOUT_BATCHER.toLowerCase()],
  );
  return rows.length > 0;
}
