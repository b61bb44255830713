import type { Chain } from "@/lib/kernel/chain-ids";

/** Each chain's mainnet block explorer; `{tx}` / `{address}` are replaced. Live mode only: sandbox chains are local. */
const EXPLORER: Record<Chain, { tx: string; address: string }> = {
  eth: { tx: "https://etherscan.io/tx/{tx}", address: "https://etherscan.io/address/{address}" },
  bnb: { tx: "https://bscscan.com/tx/{tx}", address: "https://bscscan.com/address/{address}" },
  polygon: { tx: "https://polygonscan.com/tx/{tx}", address: "https://polygonscan.com/address/{address}" },
  tron: { tx: "https://tronscan.org/#/transaction/{tx}", address: "https://tronscan.org/#/address/{address}" },
  solana: { tx: "https://solscan.io/tx/{tx}", address: "https://solscan.io/account/{address}" },
};

export function explorerTxUrl(chain: Chain, txHash: string): string {
  return EXPLORER[chain].tx.replace("{tx}", encodeURIComponent(txHash));
}

export function explorerAddressUrl(chain: Chain, address: string): string {
  return EXPLORER[chain].address.replace("{address}", encodeURIComponent(address));
}
