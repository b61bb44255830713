import { DomainError } from "@/lib/kernel/domain-error";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { formatAmount } from "@/lib/kernel/amount";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { FAUCET_MAX_UNITS } from "../../chains/sandbox/fund-sandbox-address";
import { onSandboxChain, requireSandboxChain } from "../../chains/sandbox/require-sandbox-chain";

type Owner = { merchantId: string; mode: Mode };

/**
 * POST /v1/sandbox/payments/:id/simulate: a real on-chain transfer from a fresh sandbox payer wallet to the
 * payment's deposit address, by default of what is still owed. The watcher then sees it like any other.
 * Any amount may be sent in any state, so under-, over- and late payments can be tried.
 */
export async function simulatePayment(db: Db, owner: Owner, paymentId: string, amount?: bigint) {
  return (await prepareSimulatedPayment(db, owner, paymentId, amount))();
}

/** The simulation's checks and lookups; the returned call makes the transfer (see ChainCall). */
export async function prepareSimulatedPayment(db: Db, owner: Owner, paymentId: string, amount?: bigint) {
  const payment = await getPayment(db, owner, paymentId);
  if (payment.chain && !payment.depositAddress)
    throw new DomainError(
      "invalid_request_error",
      "This payment's deposit address is not ready yet (intent_created: its address pool is being refilled). " +
        "Simulate once it is awaiting_payment, within about a minute.",
      { param: "id" },
    );
  if (!payment.chain || !payment.depositAddress) {
    throw new DomainError(
      "invalid_request_error",
      "This payment has no network yet: the payer chooses one at checkout. " +
        "Create it with a chain to simulate a transfer right away.",
      { param: "id" },
    );
  }
  const owed = payment.amountUnits - payment.amountReceivedUnits;
  const units = amount ?? owed;
  if (units <= 0n)
    throw new DomainError("invalid_request_error", "Nothing is owed on this payment; pass an amount to send more.", {
      param: "amount",
    });
  if (units > FAUCET_MAX_UNITS)
    throw new DomainError(
      "invalid_request_error",
      `amount must be at most ${formatAmount(FAUCET_MAX_UNITS)} per simulation`,
      { param: "amount" },
    );
  const { config, ops } = await requireSandboxChain(db, payment.chain, "id");
  const { chain, depositAddress } = payment;
  return async () => {
    const sent = await onSandboxChain(chain, () =>
      ops.payFromSandboxWallet(depositAddress, fromUsdtUnits(units, config.decimals)),
    );
    return {
      object: "sandbox_transfer" as const,
      payment: payment.id,
      chain,
      from: sent.from,
      to: depositAddress,
      amount: formatAmount(units),
      tx_hash: sent.txHash,
    };
  };
}
