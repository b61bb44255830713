import { expect } from "vitest";
import type { Address, Hex } from "viem";
import type { Chain } from "@/lib/chains/chains";
import { CREATE2_DEPLOYER, create2Deployment } from "@/lib/chains/evm/create2";
import { delegationCode } from "@/lib/chains/evm/evm-batch";
import { DELEGATED_PAYOUT_BATCHER } from "@/lib/chains/evm/payout-batcher";
import { ensurePayoutBatcher } from "@/lib/money-out/transfers/ensure-payout-batcher";
import { getDb } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import delegated from "../fixtures/delegated-payout-batcher.json" with { type: "json" };
import { walletOn } from "../helpers/chains";
import type { evmChain } from "./outbound-helpers";
import { waitForStatus } from "./outbound-helpers";
import { createPayouts, type Leader, oneBatchOf } from "./payout-batch-helpers";
import { type PayoutSetting, waitForPayout } from "./payout-helpers";

type EvmChain = Awaited<ReturnType<typeof evmChain>>;

const undelegations = (chain: Chain, treasury: string) =>
  query<{ id: string; status: string }>(
    getDb(),
    "select id, status from outbound_transactions where mode = 'sandbox' " +
      "and chain = $1 and purpose = 'undelegate' and cause_id = $2",
    [chain, treasury],
  );

/**
 * A service upgraded from the first design: the treasury delegated (EIP-7702) to the first PayoutBatcher, and a
 * batch of that design still open. Its delegation is not cleared while that batch is open (an undelegated
 * treasury would take the batch's call and pay no one); the batch goes as it was made, through the delegation,
 * and pays each recipient once; then the treasury's delegation is cleared through the journal, and the payouts
 * after it go through the allowance.
 */
export async function expectDelegatedTreasuryMovesOn(s: PayoutSetting, chain: EvmChain, leader: Leader) {
  const name = chain.config.chain as Chain;
  const treasury = chain.treasury.address;
  // The first design on chain: its contract (CREATE2, at the address its batches name), the treasury delegated.
  const first = create2Deployment(delegated.bytecode as Hex);
  expect(first.address).toBe(DELEGATED_PAYOUT_BATCHER);
  if (!(await chain.client.getCode({ address: first.address }))) {
    const deployer = walletOn(chain.config.rpcUrl, chain.config.chainId!, anvilAccount());
    const hash = await deployer.sendTransaction({ to: CREATE2_DEPLOYER as Address, data: first.deployData });
    expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
  await leader.stop();
  const { to, ids } = await createPayouts(s, chain, 3, "0.200000");
  const batchId = await oneBatchOf(ids);
  // As the first design recorded it: to, and through, the first PayoutBatcher.
  await execute(
    getDb(),
    `update outbound_transactions set to_address = $2,
            options = jsonb_set(options, '{payoutBatch,contract}', to_jsonb($2::text)) where id = $1`,
    [batchId, first.address],
  );
  // The treasury's code set directly (no transaction of the treasury's, whose nonces the journal allocates).
  await chain.rpc("anvil_setCode", [treasury, delegationCode(first.address)]);
  // Its batch open: the treasury keeps its delegation.
  await ensurePayoutBatcher(getDb(), chain.config);
  expect(await undelegations(name, treasury)).toEqual([]);

  await leader.start();
  for (const id of ids) await waitForPayout(id, "confirmed", 120_000);
  for (const address of to) {
    expect(await chain.balanceOf(address)).toBe(200_000n);
    expect(await chain.transfersTo(address)).toBe(1);
  }
  expect(await chain.client.getCode({ address: treasury as Address })).toBe(delegationCode(first.address));

  // Nothing of the first design open: the delegation is cleared, once, through the journal.
  await ensurePayoutBatcher(getDb(), chain.config);
  const [undelegation] = await undelegations(name, treasury);
  expect(undelegation).toBeTruthy();
  await waitForStatus(undelegation!.id, "confirmed", 90_000);
  expect(await chain.client.getCode({ address: treasury as Address })).toBeUndefined();
  await ensurePayoutBatcher(getDb(), chain.config);
  expect(await undelegations(name, treasury)).toEqual([{ id: undelegation!.id, status: "confirmed" }]);

  // The payouts after it go through the allowance, from a treasury that stays a plain account.
  const next = await createPayouts(s, chain, 2, "0.100000");
  for (const id of next.ids) await waitForPayout(id, "confirmed", 120_000);
  for (const address of next.to) expect(await chain.balanceOf(address)).toBe(100_000n);
  expect(await chain.client.getCode({ address: treasury as Address })).toBeUndefined();
}
