import type { Chain } from "@/lib/chains/chains";
import { addressKey } from "@/lib/chains/address-key";
import { addressProblem, keyPairProblem } from "@/lib/chains/validate-address";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { prepareDestinationCheck } from "@/lib/money-out/transfers/check-destination";
import type { Db } from "@/lib/platform/db/client";
import { listPaymentDeposits } from "@/lib/money-in/deposits/list-payment-deposits";

const refuse = (param: string, message: string) => new DomainError("invalid_request_error", message, { param });

/**
 * The one address a payment came from, for `destination: "sender"`: refused when no transfer says who sent it,
 * or when several addresses paid (which of them is owed what is the merchant's call: use `claim`).
 */
export async function senderOf(db: Db, owner: { merchantId: string; mode: Mode }, paymentId: string): Promise<string> {
  const transfers = (await listPaymentDeposits(db, owner, paymentId)).filter(
    (d) => d.kind === "payment" && d.status !== "orphaned",
  );
  const senders = new Map(transfers.filter((t) => t.from).map((t) => [addressKey(t.from!), t.from!]));
  if (transfers.length === 0) throw refuse("payment", "The payment has received nothing to refund.");
  if (transfers.some((t) => !t.from) || senders.size === 0)
    throw refuse("destination", 'The chain does not say who sent this payment: use destination "claim".');
  if (senders.size > 1)
    throw refuse(
      "destination",
      `The payment came from ${senders.size} addresses: use destination "claim" or "address" to choose.`,
    );
  return [...senders.values()][0]!;
}

/**
 * A refund's destination checked as a payout's is: the chain's address format (checksum, base58, on-curve), the
 * service's own addresses and the token contract (in the database), then what the network must answer (a Solana
 * token account given for a wallet), returned to run outside any transaction. `param` names the field at fault.
 */
export async function checkRefundDestination(
  db: Db,
  owner: { mode: Mode },
  chain: Chain,
  address: string,
  param: string,
): Promise<() => Promise<void>> {
  const format = addressProblem(chain, address);
  if (format) throw refuse(param, format.replace(/^to_address/, param));
  // A payer's wallet is a key pair: a program's account is not refunded into.
  const keyless = keyPairProblem(chain, address, param);
  if (keyless) throw refuse(param, keyless);
  try {
    const network = await prepareDestinationCheck(db, owner, { chain, to_address: address });
    return async () => {
      await network().catch(renamed(param));
    };
  } catch (err) {
    return renamed(param)(err);
  }
}

// Worded by field: the claim page's `address` is what the payer typed; `destination` ("sender") is the address
// the payment came from.
const SUBJECT: Record<string, string> = { address: "This address", destination: "The payment's sender" };

const renamed = (param: string) => (err: unknown) => {
  if (err instanceof DomainError && err.param === "to_address" && param !== "to_address")
    throw refuse(param, err.message.replace(/^to_address/, SUBJECT[param] ?? param));
  throw err;
};
