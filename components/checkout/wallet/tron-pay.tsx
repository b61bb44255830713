"use client";
import { useEffect, useRef, useState } from "react";
import { displayAmount, toBaseUnits } from "./amounts";
import { WalletPayError } from "./errors";
import { connectTronLink, injectedTron, sendTronUsdt, tronNodeMatches } from "./tron-link";
import type { WalletPayProps } from "./wallet-pay-props";
import { ConnectedAs, FlowMessages, NoWallet, PayNote, useWalletFlow, WalletActionButton } from "./wallet-ui";

/** TronLink may inject a moment after the page loads (it fires tronLink#initialized when it does). */
const DETECT_GRACE_MS = 800;

function useTronLinkPresent(): boolean | null {
  const [present, setPresent] = useState<boolean | null>(null);
  useEffect(() => {
    const check = () => {
      const { tronLink, tronWeb } = injectedTron();
      if (tronLink || tronWeb) setPresent(true);
    };
    check();
    window.addEventListener("tronLink#initialized", check);
    const timer = setTimeout(() => {
      check();
      setPresent((p) => p ?? false);
    }, DETECT_GRACE_MS);
    return () => {
      window.removeEventListener("tronLink#initialized", check);
      clearTimeout(timer);
    };
  }, []);
  return present;
}

/** Tron through TronLink's injected objects: connect, then a TRC-20 transfer TronLink signs. */
export default function TronPay({ network, depositAddress, amountDue }: WalletPayProps) {
  const present = useTronLinkPresent();
  const [account, setAccount] = useState<string | null>(null);
  const label = network.browserRpcUrl ? `the Tron sandbox node ${network.browserRpcUrl}` : "Tron mainnet";
  const flow = useWalletFlow({ network: label, gas: network.gas });
  const sendRef = useRef<HTMLButtonElement>(null);

  // Once connected (and the connect step is over, so the button is enabled), Send is the next thing to do.
  useEffect(() => {
    if (account && !flow.busy) sendRef.current?.focus();
  }, [account, flow.busy]);

  const onConnect = () =>
    flow.run("connect", "Approve the connection in TronLink…", async () => {
      setAccount(await connectTronLink());
    });

  const onSend = () =>
    flow.run("send", "Confirm the payment in TronLink…", async () => {
      const { tronWeb } = injectedTron();
      if (!tronWeb || !account) throw new WalletPayError("no-wallet", "TronLink was not found");
      // The account may have changed in TronLink since connecting; send from the one it uses now.
      const from = tronWeb.defaultAddress?.base58 || account;
      if (from !== account) setAccount(from);
      if (tronNodeMatches(tronWeb, network.browserRpcUrl) === false)
        throw new WalletPayError("wrong-network", "TronLink is on another network");
      return sendTronUsdt(tronWeb, {
        token: network.tokenAddress,
        to: depositAddress,
        rawAmount: toBaseUnits(amountDue, network.decimals),
        from,
      });
    });

  const sent = flow.state.kind === "sent";
  return (
    <div className="space-y-3">
      {account ? (
        <>
          <ConnectedAs label="Paying from" account={account} />
          {!sent && (
            <WalletActionButton ref={sendRef} onClick={onSend} disabled={flow.busy} aria-describedby="wallet-pay-note">
              Send {displayAmount(amountDue)} USDT
            </WalletActionButton>
          )}
        </>
      ) : present === null ? (
        <p className="min-h-11 text-sm text-slate-700">Looking for TronLink…</p>
      ) : present ? (
        <WalletActionButton variant="secondary" onClick={onConnect} disabled={flow.busy}>
          Connect TronLink
        </WalletActionButton>
      ) : (
        <NoWallet what="TronLink wallet" />
      )}
      <PayNote
        standard={network.standard}
        network={network.name}
        extra={`TronLink may charge ${network.gas} for energy.`}
      />
      <FlowMessages state={flow.state} />
    </div>
  );
}
