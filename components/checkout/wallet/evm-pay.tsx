"use client";
import { useEffect, useRef, useState } from "react";
import { getAddress } from "viem";
import {
  createConfig,
  custom,
  http,
  injected,
  useConfig,
  useConnection,
  useConnectors,
  WagmiProvider,
  type Connector,
} from "wagmi";
import { connect, disconnect, switchChain, writeContract } from "wagmi/actions";
import { TRANSFER_ABI } from "@/lib/chains/evm/evm-token";
import { displayAmount, toBaseUnits } from "./amounts";
import { WalletPayError } from "./errors";
import { checkoutChain, evmNetworkLabel } from "./evm-chain";
import type { WalletPayProps } from "./wallet-pay-props";
import {
  ConnectedAs,
  FlowMessages,
  NoWallet,
  PayNote,
  useWalletFlow,
  WalletActionButton,
  WalletList,
} from "./wallet-ui";

const SWITCH_TIMEOUT_MS = 120_000;

/**
 * Ethereum, BNB Smart Chain and Polygon through an injected wallet (EIP-6963 announced wallets and the
 * legacy window.ethereum), with wagmi holding the connection. Nothing here reads chain state: the wallet
 * switches network, builds, signs and sends; the page learns the outcome from the server.
 */
export default function EvmPay(props: WalletPayProps) {
  if (props.network.chainId === null)
    return (
      <p className="text-sm text-slate-800">
        This network cannot be paid from a browser wallet here. Scan the QR code or copy the address instead.
      </p>
    );
  return <EvmProvider {...props} />;
}

function EvmProvider(props: WalletPayProps) {
  const [config] = useState(() => {
    const chain = checkoutChain(props.network);
    const rpc = chain.rpcUrls.default.http[0];
    return createConfig({
      chains: [chain],
      connectors: [injected()],
      multiInjectedProviderDiscovery: true,
      // No persisted connection: each checkout starts disconnected and connects only on a click.
      storage: null,
      transports: {
        [chain.id]: rpc ? http(rpc) : custom({ request: () => Promise.reject(new Error("no RPC for this chain")) }),
      },
    });
  });
  return (
    <WagmiProvider config={config} reconnectOnMount={false}>
      <EvmWallet {...props} />
    </WagmiProvider>
  );
}

/** The announced wallets, plus window.ethereum when it is not one of them (an older wallet). */
function useInjectedWallets(): Connector[] | null {
  const connectors = useConnectors();
  const [wallets, setWallets] = useState<Connector[] | null>(null);
  useEffect(() => {
    let current = true;
    const announced = connectors.filter((c) => c.type === "injected" && c.id !== "injected");
    const legacy = connectors.find((c) => c.id === "injected");
    const ethereum = (window as { ethereum?: unknown }).ethereum;
    Promise.all(announced.map((c) => c.getProvider().catch(() => undefined))).then((providers) => {
      if (current) setWallets(legacy && ethereum && !providers.includes(ethereum) ? [...announced, legacy] : announced);
    });
    return () => {
      current = false;
    };
  }, [connectors]);
  return wallets;
}

const walletName = (c: Connector) => (c.id === "injected" ? "Browser wallet" : c.name);

function EvmWallet({ network, depositAddress, amountDue }: WalletPayProps) {
  const config = useConfig();
  const wallets = useInjectedWallets();
  const { address, connector, status } = useConnection();
  const label = evmNetworkLabel(network);
  const flow = useWalletFlow({ network: label, gas: network.gas });
  const sendRef = useRef<HTMLButtonElement>(null);
  const connected = status === "connected" && address && connector;

  // Once connected (and the connect step is over, so the button is enabled), Send is the next thing to do.
  useEffect(() => {
    if (connected && !flow.busy) sendRef.current?.focus();
  }, [connected, flow.busy]);

  const onConnect = (c: Connector) =>
    flow.run("connect", `Approve the connection in ${walletName(c)}…`, async () => {
      await connect(config, { connector: c });
    });

  const onSend = () =>
    flow.run("send", "Confirm the payment in your wallet…", async (say) => {
      if (!connector) throw new WalletPayError("no-wallet", "the wallet disconnected");
      const chainId = network.chainId!;
      // Exact amount first: nothing reaches the wallet if it cannot be expressed in the token's units.
      const amount = toBaseUnits(amountDue, network.decimals);
      if ((await connector.getChainId()) !== chainId) {
        say(`Approve the switch to ${network.name} in your wallet…`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await Promise.race([
            switchChain(config, { chainId, connector }),
            new Promise(
              (_, reject) =>
                (timer = setTimeout(() => reject(new Error("the wallet did not switch")), SWITCH_TIMEOUT_MS)),
            ),
          ]);
        } catch (e) {
          throw new WalletPayError("wrong-network", "the wallet did not switch network", { cause: e });
        } finally {
          clearTimeout(timer);
        }
        say("Confirm the payment in your wallet…");
      }
      return writeContract(config, {
        connector,
        chainId,
        address: getAddress(network.tokenAddress),
        abi: TRANSFER_ABI,
        functionName: "transfer",
        args: [getAddress(depositAddress), amount],
      });
    });

  const sent = flow.state.kind === "sent";
  return (
    <div className="space-y-3">
      {connected ? (
        <>
          <ConnectedAs
            label="Paying from"
            account={address}
            disabled={flow.busy}
            onSwitch={sent ? undefined : () => void disconnect(config).then(flow.reset, flow.reset)}
          />
          {!sent && (
            <WalletActionButton ref={sendRef} onClick={onSend} disabled={flow.busy} aria-describedby="wallet-pay-note">
              Send {displayAmount(amountDue)} USDT
            </WalletActionButton>
          )}
        </>
      ) : wallets === null ? (
        <p className="min-h-11 text-sm text-slate-700">Looking for wallets…</p>
      ) : wallets.length === 0 ? (
        <NoWallet what="Ethereum-compatible browser wallet" />
      ) : (
        <WalletList
          busy={flow.busy}
          wallets={wallets.map((c) => ({ key: c.uid, name: walletName(c), icon: c.icon, connect: () => onConnect(c) }))}
        />
      )}
      <PayNote standard={network.standard} network={network.name} />
      <FlowMessages state={flow.state} />
    </div>
  );
}
