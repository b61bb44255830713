import type { BrowserContext } from "playwright-core";
import { createWalletClient, defineChain, http, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";

/**
 * An injected EIP-1193 wallet for the browser tests, "Test Wallet" (rdns test.wallet). The page half
 * (`walletScript`, added with addInitScript) is the provider: it keeps the connection and the current
 * chain, announces itself by EIP-6963 and as window.ethereum, and hands everything that touches a chain
 * to the Node half (`exposeTestWallet`), which forwards reads to the sandbox RPC of the wallet's current
 * chain and signs transactions for real with viem and a private key.
 *
 * Like a real wallet it only knows the chains it was set up with: switching to any other is refused with
 * 4902 until the page adds it with wallet_addEthereumChain. A transaction is sent on the current chain.
 */
export interface TestWalletPage {
  uuid: string;
  address: string;
  /** Hex chain ids the wallet knows from the start; the first is the current chain. */
  knownChains: string[];
}

export interface TestWalletCall {
  method: string;
  params: unknown;
}

function walletScript(cfg: TestWalletPage) {
  type Listener = (arg: unknown) => void;
  const w = window as unknown as Record<string, any>;
  const listeners = new Map<string, Set<Listener>>();
  const emit = (event: string, arg: unknown) => {
    for (const fn of listeners.get(event) ?? []) setTimeout(() => fn(arg));
  };
  const known = new Set(cfg.knownChains.map((c) => c.toLowerCase()));
  let chainId = cfg.knownChains[0]!.toLowerCase();
  let connected = false;
  const accounts = [cfg.address.toLowerCase()];
  const calls: TestWalletCall[] = [];
  const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });
  const switchTo = (id: string) => {
    if (id !== chainId) {
      chainId = id;
      emit("chainChanged", id);
    }
  };
  const provider = {
    isTestWallet: true,
    async request({ method, params }: { method: string; params?: any[] }): Promise<unknown> {
      calls.push({ method, params: params ?? null });
      switch (method) {
        case "eth_requestAccounts":
          if (!connected) {
            connected = true;
            emit("connect", { chainId });
            emit("accountsChanged", accounts);
          }
          return accounts;
        case "eth_accounts":
          return connected ? accounts : [];
        case "eth_chainId":
          return chainId;
        case "net_version":
          return String(parseInt(chainId, 16));
        case "wallet_requestPermissions":
          connected = true;
          return [{ parentCapability: "eth_accounts" }];
        case "wallet_getPermissions":
          return connected ? [{ parentCapability: "eth_accounts" }] : [];
        case "wallet_revokePermissions":
          connected = false;
          return null;
        case "wallet_switchEthereumChain": {
          const id = String(params?.[0]?.chainId ?? "").toLowerCase();
          if (!known.has(id))
            throw rpcError(
              4902,
              `Unrecognized chain ID "${id}". Try adding the chain using wallet_addEthereumChain first.`,
            );
          switchTo(id);
          return null;
        }
        case "wallet_addEthereumChain": {
          const id = String(params?.[0]?.chainId ?? "").toLowerCase();
          if (!/^0x[0-9a-f]+$/.test(id)) throw rpcError(-32602, "invalid chainId");
          known.add(id);
          switchTo(id);
          return null;
        }
        case "eth_sendTransaction":
          if (!connected) throw rpcError(4100, "The requested account has not been authorized by the user.");
          return w.__testWalletSend({ chainId, tx: params?.[0] });
        case "eth_sign":
        case "personal_sign":
        case "eth_signTypedData_v4":
          throw rpcError(4200, `${method} is not supported by the test wallet`);
        default:
          return w.__testWalletRpc({ chainId, method, params: params ?? [] });
      }
    },
    on(event: string, fn: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(fn);
      return provider;
    },
    removeListener(event: string, fn: Listener) {
      listeners.get(event)?.delete(fn);
      return provider;
    },
  };
  (provider as any).off = provider.removeListener;
  w.__testWallet = { calls, provider };
  w.ethereum = provider;
  const icon = `data:image/svg+xml;base64,${btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
      '<rect width="32" height="32" rx="6" fill="#2563eb"/></svg>',
  )}`;
  const info = Object.freeze({ uuid: cfg.uuid, name: "Test Wallet", icon, rdns: "test.wallet" });
  const announce = () =>
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}

export interface SentTransaction {
  chainId: number;
  hash: Hex;
  to: string;
  data: string;
}

/**
 * Installs the wallet in every page of `context`. `rpcs`: chain id → the sandbox RPC URL a chain's reads
 * and transactions go to. Returns what the wallet has sent (filled as it happens).
 */
export async function installTestWallet(
  context: BrowserContext,
  opts: { account: PrivateKeyAccount; rpcs: Record<number, string>; initialChainId: number },
) {
  const sent: SentTransaction[] = [];
  const rpcUrl = (hexChainId: string) => {
    const url = opts.rpcs[parseInt(hexChainId, 16)];
    if (!url) throw new Error(`the test wallet has no RPC for chain ${hexChainId}`);
    return url;
  };
  await context.exposeBinding(
    "__testWalletRpc",
    async (_source, { chainId, method, params }: { chainId: string; method: string; params: unknown[] }) => {
      const res = await fetch(rpcUrl(chainId), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      const reply = (await res.json()) as { result?: unknown; error?: { message: string } };
      if (reply.error) throw new Error(reply.error.message);
      return reply.result;
    },
  );
  await context.exposeBinding(
    "__testWalletSend",
    async (
      _source,
      { chainId, tx }: { chainId: string; tx: { from?: string; to?: string; data?: Hex; value?: Hex; gas?: Hex } },
    ) => {
      if (!tx || (tx.from && tx.from.toLowerCase() !== opts.account.address.toLowerCase()))
        throw new Error(`the test wallet cannot sign for ${tx?.from}`);
      const id = parseInt(chainId, 16);
      const chain = defineChain({
        id,
        name: `sandbox ${id}`,
        nativeCurrency: { name: "native", symbol: "N", decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl(chainId)] } },
      });
      const client = createWalletClient({ account: opts.account, chain, transport: http(rpcUrl(chainId)) });
      const hash = await client.sendTransaction({
        to: tx.to as Hex,
        data: tx.data,
        value: tx.value ? BigInt(tx.value) : undefined,
        gas: tx.gas ? BigInt(tx.gas) : undefined,
      });
      sent.push({ chainId: id, hash, to: tx.to ?? "", data: tx.data ?? "" });
      return hash;
    },
  );
  const page: TestWalletPage = {
    uuid: crypto.randomUUID(),
    address: opts.account.address,
    knownChains: [`0x${opts.initialChainId.toString(16)}`],
  };
  await context.addInitScript(walletScript, page);
  return { sent };
}
