import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { Chain } from "@/lib/chains/chains";
import { FAUCET_MAX_UNITS } from "@/lib/chains/sandbox/fund-sandbox-address";
import { onSandboxChain, requireSandboxChain } from "@/lib/chains/sandbox/require-sandbox-chain";
import { formatAmount } from "@/lib/kernel/amount";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import type { Db } from "@/lib/platform/db/client";
import { getDepositAddress } from "./manage-deposit-addresses";

type Owner = { merchantId: string; mode: Mode };

/**
 * POST /v1/sandbox/deposit_addresses/:id/simulate: a real transfer of `amount` from a fresh sandbox payer wallet to
 * the deposit address (disabled ones too: the point is to see what happens). The watcher then records it as any
 * deposit. The checks and lookups run here; the returned call makes the transfer (see ChainCall).
 */
export async function prepareSimulatedDeposit(db: Db, owner: Owner, id: string, amount: bigint) {
  const address = await getDepositAddress(db, owner, id);
  if (amount > FAUCET_MAX_UNITS)
    throw new DomainError(
      "invalid_request_error",
      `amount must be at most ${formatAmount(FAUCET_MAX_UNITS)} per simulation`,
      { param: "amount" },
    );
  const chain = address.chain as Chain;
  const { config, ops } = await requireSandboxChain(db, chain, "id");
  return async () => {
    const sent = await onSandboxChain(chain, () =>
      ops.payFromSandboxWallet(address.address, fromUsdtUnits(amount, config.decimals)),
    );
    return {
      object: "sandbox_deposit_transfer" as const,
      deposit_address: address.id,
      chain,
      from: sent.from,
      to: address.address,
      amount: formatAmount(amount),
      tx_hash: sent.txHash,
    };
  };
}
