"use client";
import { useCallback, useState, type ButtonHTMLAttributes, type Ref } from "react";
import { shortAddress } from "./amounts";
import { walletErrorMessage, type ErrorContext } from "./errors";
import { cn } from "@/components/class-names";

/** Where a wallet payment stands: nothing yet, waiting for the wallet, failed (in words), or sent. */
export type FlowState =
  | { kind: "idle" }
  | { kind: "busy"; text: string }
  | { kind: "error"; text: string }
  | { kind: "sent"; txId: string };

/**
 * Runs one wallet step (connect or send) and keeps its state. `say` updates the progress line while the
 * step runs (e.g. "switch network" then "confirm"); a step that returns a transaction id ends as sent.
 */
export function useWalletFlow(ctx: ErrorContext) {
  const [state, setState] = useState<FlowState>({ kind: "idle" });
  const { network, gas } = ctx;
  const run = useCallback(
    async (
      phase: "connect" | "send",
      text: string,
      /* biome-ignore lint/suspicious/noConfusingVoidType: a connect step resolves with nothing, a send step with
         its tx id */
      step: (say: (text: string) => void) => Promise<string | undefined | void>,
    ) => {
      setState({ kind: "busy", text });
      try {
        const txId = await step((next) => setState({ kind: "busy", text: next }));
        setState(txId ? { kind: "sent", txId } : { kind: "idle" });
      } catch (error) {
        console.warn("wallet payment:", error);
        setState({ kind: "error", text: walletErrorMessage(error, { network, gas }, phase) });
      }
    },
    [network, gas],
  );
  const reset = useCallback(() => setState({ kind: "idle" }), []);
  return { state, run, reset, busy: state.kind === "busy" };
}

const BASE = cn(
  "flex min-h-11 w-full items-center justify-center gap-2 rounded-xl px-4 py-3 font-medium",
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2",
  "disabled:cursor-not-allowed",
);
const PRIMARY = `${BASE} bg-slate-900 text-white hover:bg-slate-800 disabled:bg-slate-700`;
const SECONDARY = `${BASE} border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 disabled:text-slate-700`;

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: "primary" | "secondary";
  icon?: string;
  ref?: Ref<HTMLButtonElement>;
};

export function WalletActionButton({ variant = "primary", icon, children, className, ref, ...rest }: ButtonProps) {
  return (
    <button
      ref={ref}
      type="button"
      className={`${variant === "primary" ? PRIMARY : SECONDARY} ${className ?? ""}`}
      {...rest}
    >
      {icon && /^data:image\//.test(icon) && (
        // biome-ignore lint/performance/noImgElement: wallet icons are data: URIs the wallet announces; decorative
        <img src={icon} alt="" width={24} height={24} className="h-6 w-6 shrink-0 rounded" />
      )}
      <span className="min-w-0 break-words">{children}</span>
    </button>
  );
}

/** The connected account, and a way to pick another wallet. */
export function ConnectedAs({
  label,
  account,
  onSwitch,
  disabled,
}: {
  label: string;
  account: string;
  onSwitch?: () => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex min-h-11 items-center justify-between gap-3 text-sm">
      <p className="min-w-0 text-slate-700">
        {label}:{" "}
        <span className="whitespace-nowrap font-mono text-slate-900" title={account}>
          {shortAddress(account)}
        </span>
      </p>
      {onSwitch && (
        <button
          type="button"
          onClick={onSwitch}
          disabled={disabled}
          className={cn(
            "min-h-11 shrink-0 rounded-xl px-3 text-sm font-medium",
            "text-slate-900 underline underline-offset-2 hover:bg-slate-50",
            "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
            "disabled:text-slate-700",
          )}
        >
          Use another wallet
        </button>
      )}
    </div>
  );
}

/**
 * Progress (role=status) and errors (role=alert) in one area of reserved height, so nothing below moves
 * when a message appears. Both regions stay mounted so screen readers announce their changes.
 */
export function FlowMessages({ state }: { state: FlowState }) {
  return (
    <div className="min-h-[4.5rem] text-sm">
      <div role="status" aria-live="polite" className="text-slate-800">
        {state.kind === "busy" && <p>{state.text}</p>}
        {state.kind === "sent" && (
          <>
            <p className="font-medium text-slate-900">
              Transaction sent: <span className="break-all font-mono text-xs font-normal">{state.txId}</span>
            </p>
            <p className="mt-1 text-slate-700">
              This page will update when the network sees it. Do not send the payment again.
            </p>
          </>
        )}
      </div>
      <div role="alert" className="text-red-900">
        {state.kind === "error" && <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2">{state.text}</p>}
      </div>
    </div>
  );
}

/** What to say when no wallet is present in this browser. */
export function NoWallet({ what }: { what: string }) {
  return (
    <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
      No {what} was found in this browser. Install one and reload this page, or pay by scanning the QR code or copying
      the address above.
    </p>
  );
}

/** One "Connect <name>" button per wallet found in the browser. */
export function WalletList({
  wallets,
  busy,
}: {
  wallets: { key: string; name: string; icon?: string; connect: () => void }[];
  busy: boolean;
}) {
  return (
    <ul className="space-y-2" aria-label="Wallets found in this browser">
      {wallets.map((w) => (
        <li key={w.key}>
          <WalletActionButton variant="secondary" icon={w.icon} disabled={busy} onClick={w.connect}>
            Connect {w.name}
          </WalletActionButton>
        </li>
      ))}
    </ul>
  );
}

/** What the buttons do, said once under them (the Send button points here with aria-describedby). */
export function PayNote({ standard, network, extra }: { standard: string; network: string; extra?: string }) {
  return (
    <p id="wallet-pay-note" className="text-xs text-slate-700">
      Sends USDT ({standard}) on {network} to the deposit address above.{extra ? ` ${extra}` : ""}
    </p>
  );
}
