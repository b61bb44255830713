import { chainConfig, type ChainConfig, enabledChainConfigs, walletRpcUrl } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { type AppConfig, config as appConfig } from "@/lib/platform/config/env";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Mode } from "@/lib/kernel/mode";
import { paymentRow, type PaymentRow } from "@/lib/money-in/payments/payment-row";
import { checkoutStatus, type CheckoutStatus } from "./checkout-status";
import { NETWORK } from "./networks";
import { networkDelayed } from "./network-delay";
import { paymentUri } from "@/lib/chains/payment-uri";

export interface CheckoutNetwork {
  chain: Chain;
  family: ChainConfig["family"];
  name: string;
  standard: string;
  gas: string;
  emulated: boolean;
  chainId: number | null;
  tokenAddress: string;
  decimals: number;
  /** An RPC the payer's browser may use (sandbox chains; Solana's public RPC live); null otherwise. */
  browserRpcUrl: string | null;
}

export interface CheckoutView {
  paymentId: string;
  mode: Mode;
  merchantName: string;
  description: string | null;
  status: CheckoutStatus;
  /** Set once the network is chosen. */
  network: CheckoutNetwork | null;
  depositAddress: string | null;
  /** The QR code's content for what is still owed. */
  uri: string | null;
  /** For a payment with no network yet: what the payer may pick from. */
  choices: CheckoutNetwork[];
}

export function checkoutNetwork(config: ChainConfig, cfg: AppConfig = appConfig()): CheckoutNetwork {
  const browserRpcUrl = walletRpcUrl(config, cfg);
  return {
    chain: config.chain,
    family: config.family,
    ...NETWORK[config.chain],
    emulated: config.emulated,
    chainId: config.chainId,
    tokenAddress: config.tokenAddress,
    decimals: config.decimals,
    browserRpcUrl,
  };
}

/** Networks a payer may choose in this mode: enabled and, in sandbox, running. */
export async function availableNetworks(db: Db, mode: Mode): Promise<CheckoutNetwork[]> {
  return (await enabledChainConfigs(db, mode)).map((c) => checkoutNetwork(c));
}

const PAYMENT_WITH_MERCHANT = `select ${paymentRow.prefixed("p")}, m.name as merchant_name
  from payments p join merchants m on m.id = p.merchant_id where p.id = $1`;

export async function loadPaymentForCheckout(
  db: Db,
  paymentId: string,
): Promise<(PaymentRow & { merchantName: string }) | null> {
  if (!/^pay_[0-9A-Za-z]{1,64}$/.test(paymentId)) return null;
  const [row] = await query(db, PAYMENT_WITH_MERCHANT, [paymentId]);
  return row ? { ...paymentRow.map(row), merchantName: row.merchant_name as string } : null;
}

/** Everything the public /checkout/<id> page renders, or null for an unknown id. */
export async function loadCheckout(db: Db, paymentId: string): Promise<CheckoutView | null> {
  const payment = await loadPaymentForCheckout(db, paymentId);
  if (!payment) return null;
  const config = payment.chain ? await chainConfig(db, payment.mode, payment.chain) : null;
  const network = config ? checkoutNetwork(config) : null;
  const delayed = payment.chain ? await networkDelayed(db, payment.mode, payment.chain) : false;
  const status = checkoutStatus(payment, config?.confirmations.required ?? null, delayed);
  const owed = payment.amountUnits - payment.amountReceivedUnits;
  return {
    paymentId: payment.id,
    mode: payment.mode,
    merchantName: payment.merchantName,
    description: payment.description,
    status,
    network,
    depositAddress: payment.depositAddress,
    uri: config && payment.depositAddress && owed > 0n ? paymentUri(config, payment.depositAddress, owed) : null,
    choices: payment.chain ? [] : await availableNetworks(db, payment.mode),
  };
}
