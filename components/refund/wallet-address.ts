import { getAddress } from "viem";
import type { ChainFamily } from "@/lib/chains/chain-registry";
import { injectedTron } from "@/components/checkout/wallet/tron-link";

/** A browser wallet that can tell the page one of its addresses on the refund's network family. */
export interface AddressWallet {
  name: string;
  address(): Promise<string>;
}

interface Eip1193 {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}
interface SolanaInjected {
  connect(): Promise<{ publicKey?: { toString(): string } } | undefined>;
  publicKey?: { toString(): string } | null;
}

const EIP6963_WAIT_MS = 200;

/** EIP-6963's announced wallets, then window.ethereum when none announces itself (an older wallet). */
async function evmWallets(): Promise<AddressWallet[]> {
  const announced: { info: { name: string }; provider: Eip1193 }[] = [];
  const onAnnounce = (e: Event) => announced.push((e as CustomEvent).detail);
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  await new Promise((resolve) => setTimeout(resolve, EIP6963_WAIT_MS));
  window.removeEventListener("eip6963:announceProvider", onAnnounce);
  const legacy = (window as { ethereum?: Eip1193 }).ethereum;
  const found = announced.length
    ? announced
    : legacy
      ? [{ info: { name: "your browser wallet" }, provider: legacy }]
      : [];
  return found.map(({ info, provider }) => ({
    name: info.name,
    // Wallets answer in lower case; the page shows and checks the EIP-55 form.
    address: async () => getAddress(((await provider.request({ method: "eth_requestAccounts" })) as string[])[0]!),
  }));
}

function tronWallets(): AddressWallet[] {
  const { tronLink, tronWeb } = injectedTron();
  if (!tronLink && !tronWeb) return [];
  return [
    {
      name: "TronLink",
      address: async () => {
        await tronLink?.request?.({ method: "tron_requestAccounts" });
        const base58 = injectedTron().tronWeb?.defaultAddress?.base58;
        if (!base58) throw new Error("TronLink is locked or has no account");
        return base58;
      },
    },
  ];
}

function solanaWallets(): AddressWallet[] {
  const w = window as { phantom?: { solana?: SolanaInjected }; solana?: SolanaInjected; solflare?: SolanaInjected };
  const wallets: [string, SolanaInjected | undefined][] = [
    ["Phantom", w.phantom?.solana ?? w.solana],
    ["Solflare", w.solflare],
  ];
  return wallets.flatMap(([name, provider]) =>
    provider
      ? [
          {
            name,
            address: async () => {
              const key = (await provider.connect())?.publicKey ?? provider.publicKey;
              if (!key) throw new Error(`${name} gave no account`);
              return key.toString();
            },
          },
        ]
      : [],
  );
}

/** The wallets in this browser for the family; none is fine: the payer types the address. */
export async function findAddressWallets(family: ChainFamily): Promise<AddressWallet[]> {
  if (family === "evm") return evmWallets();
  return family === "tron" ? tronWallets() : solanaWallets();
}
