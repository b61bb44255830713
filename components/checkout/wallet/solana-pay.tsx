"use client";
import { useEffect, useRef, useState } from "react";
import { ConnectionProvider, useConnection, useWallet, WalletProvider } from "@solana/wallet-adapter-react";
import {
  WalletReadyState,
  WalletSendTransactionError,
  type Adapter,
  type WalletName,
} from "@solana/wallet-adapter-base";
import { PublicKey, Transaction } from "@solana/web3.js";
import { displayAmount, toBaseUnits } from "./amounts";
import { WalletPayError } from "./errors";
import { usdtPaymentInstructions } from "./solana-instructions";
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

/** No adapters of our own: wallet-standard wallets (Phantom, Solflare, Backpack, …) are detected. */
const NO_ADAPTERS: Adapter[] = [];
const PUBLIC_RPC = "https://api.mainnet-beta.solana.com";
// Errors are shown by the step that caused them; without this the adapter logs and may open a wallet's site.
const ignore = () => {};

export default function SolanaPay(props: WalletPayProps) {
  return (
    <ConnectionProvider endpoint={props.network.browserRpcUrl ?? PUBLIC_RPC} config={{ commitment: "confirmed" }}>
      <WalletProvider
        wallets={NO_ADAPTERS}
        autoConnect={false}
        localStorageKey="checkout.solanaWallet"
        onError={ignore}
      >
        <SolanaWallet {...props} />
      </WalletProvider>
    </ConnectionProvider>
  );
}

/** Wallet-standard wallets register a moment after load: wait briefly before saying there are none. */
function useSettled(ms = 800): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return settled;
}

function SolanaWallet({ network, depositAddress, amountDue }: WalletPayProps) {
  const { connection } = useConnection();
  const { wallets, wallet, select, connect, disconnect, connected, publicKey, sendTransaction } = useWallet();
  const label = network.browserRpcUrl ? `the Solana network at ${network.browserRpcUrl}` : "Solana mainnet";
  const flow = useWalletFlow({ network: label, gas: network.gas });
  const { run } = flow;
  const settled = useSettled();
  const [pending, setPending] = useState<WalletName | null>(null);
  const sendRef = useRef<HTMLButtonElement>(null);
  const detected = wallets.filter(
    (w) => w.readyState === WalletReadyState.Installed || w.readyState === WalletReadyState.Loadable,
  );

  // Once connected (and the connect step is over, so the button is enabled), Send is the next thing to do.
  useEffect(() => {
    if (connected && !flow.busy) sendRef.current?.focus();
  }, [connected, flow.busy]);

  // select() takes effect on the next render; connect once the chosen wallet is the selected one.
  useEffect(() => {
    if (!pending || wallet?.adapter.name !== pending) return;
    setPending(null);
    void run("connect", `Approve the connection in ${pending}…`, () => connect());
  }, [pending, wallet, connect, run]);

  const onConnect = (name: WalletName) => {
    if (wallet?.adapter.name === name) void flow.run("connect", `Approve the connection in ${name}…`, () => connect());
    else {
      select(name);
      setPending(name);
    }
  };

  const onSend = () =>
    flow.run("send", "Confirm the payment in your wallet…", async () => {
      if (!publicKey) throw new WalletPayError("no-wallet", "the wallet disconnected");
      const mint = new PublicKey(network.tokenAddress);
      const amount = toBaseUnits(amountDue, network.decimals);
      const instructions = usdtPaymentInstructions({
        payer: publicKey,
        depositOwner: new PublicKey(depositAddress),
        mint,
        amount,
        decimals: network.decimals,
      });
      const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash("confirmed");
      const tx = new Transaction({ feePayer: publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
      try {
        return await sendTransaction(tx, connection);
      } catch (e) {
        // A wallet-standard wallet that does not serve this cluster fails with an empty send error.
        if (e instanceof WalletSendTransactionError && !e.message && !e.error)
          throw new WalletPayError("wrong-network", "the wallet does not serve this Solana network", { cause: e });
        throw e;
      }
    });

  const sent = flow.state.kind === "sent";
  return (
    <div className="space-y-3">
      {connected && publicKey ? (
        <>
          <ConnectedAs
            label="Paying from"
            account={publicKey.toBase58()}
            disabled={flow.busy}
            onSwitch={sent ? undefined : () => void disconnect().then(flow.reset, flow.reset)}
          />
          {!sent && (
            <WalletActionButton ref={sendRef} onClick={onSend} disabled={flow.busy} aria-describedby="wallet-pay-note">
              Send {displayAmount(amountDue)} USDT
            </WalletActionButton>
          )}
        </>
      ) : detected.length === 0 && !settled ? (
        <p className="min-h-11 text-sm text-slate-700">Looking for wallets…</p>
      ) : detected.length === 0 ? (
        <NoWallet what="Solana wallet" />
      ) : (
        <WalletList
          busy={flow.busy}
          wallets={detected.map((w) => ({
            key: w.adapter.name,
            name: w.adapter.name,
            icon: w.adapter.icon,
            connect: () => onConnect(w.adapter.name),
          }))}
        />
      )}
      <PayNote standard={network.standard} network={network.name} />
      <FlowMessages state={flow.state} />
    </div>
  );
}
