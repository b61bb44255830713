import type { CheckoutNetwork } from "@/lib/money-in/checkout/load-checkout";

/** What each family's wallet button is given (wallet-pay.tsx picks one). */
export interface WalletPayProps {
  network: CheckoutNetwork;
  depositAddress: string;
  /** What is still owed, USDT with 6 decimals ("12.500000"). */
  amountDue: string;
}
