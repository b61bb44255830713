"use client";
import { useActionState, useRef, useState } from "react";
import { cn } from "@/components/class-names";
import type { ChainFamily } from "@/lib/chains/chain-registry";
import { type ClaimFormState, START } from "./claim-form-state";
import { WalletFill } from "./wallet-fill";

type Action = (prev: ClaimFormState, form: FormData) => Promise<ClaimFormState>;

const button = cn(
  "min-h-12 w-full rounded-xl px-4 py-3 font-semibold",
  "focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 disabled:opacity-60",
);

/**
 * The payer's address in two steps: typed (checked by the server as a payout's destination is), then
 * confirmed against the amount and network, since a transfer to a wrong address cannot be taken back. A browser
 * wallet of the network's family may fill it.
 */
export function ClaimForm({
  review,
  confirm,
  amount,
  network,
  family,
  codeRequired,
}: {
  review: Action;
  confirm: Action;
  amount: string;
  network: string;
  family: ChainFamily;
  codeRequired: boolean;
}) {
  const [reviewed, reviewAction, reviewing] = useActionState(review, START);
  const [confirmed, confirmAction, sending] = useActionState(confirm, START);
  const [editing, setEditing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const state = confirmed.error ? confirmed : reviewed;
  if (state.step === "confirm" && !editing)
    return (
      <form action={confirmAction} className="px-5 py-5">
        <h2 className="text-base font-semibold text-slate-900">Confirm where the refund goes</h2>
        <p className="mt-1 text-sm text-slate-700">
          {amount} USDT will be sent on {network} to this address. Check every character: a transfer cannot be reversed.
        </p>
        <p data-testid="claim-address" className="mt-3 break-all rounded-lg bg-slate-100 px-3 py-2 font-mono text-sm">
          {state.address}
        </p>
        <input type="hidden" name="address" value={state.address} />
        {codeRequired && <input type="hidden" name="code" value={state.code ?? ""} />}
        <button
          type="submit"
          disabled={sending}
          className={cn(button, "mt-4 bg-blue-700 text-white hover:bg-blue-800")}
        >
          {sending ? "Sending…" : "Confirm and receive the refund"}
        </button>
        <button
          type="button"
          onClick={() => setEditing(true)}
          className={cn(button, "mt-2 border border-slate-300 text-slate-900 hover:bg-slate-50")}
        >
          Change the address
        </button>
      </form>
    );
  return (
    <form
      action={(form) => {
        setEditing(false);
        reviewAction(form);
      }}
      className="px-5 py-5"
    >
      {codeRequired && (
        <>
          <label htmlFor="code" className="block text-base font-semibold text-slate-900">
            The code the merchant sent you
          </label>
          <input
            id="code"
            name="code"
            defaultValue={state.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={12}
            className={
              "mb-4 mt-1 w-full rounded-lg border border-slate-300 px-3 py-3 font-mono text-base tracking-widest"
            }
          />
        </>
      )}
      <label htmlFor="address" className="text-base font-semibold text-slate-900">
        Your wallet address on {network}
      </label>
      <p className="mt-1 text-sm text-slate-700">
        Where you want to receive the USDT: a wallet you control on {network}, not an exchange deposit address unless
        your exchange credits USDT on {network}.
      </p>
      {state.error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error}
        </p>
      )}
      <input
        ref={input}
        id="address"
        name="address"
        defaultValue={state.address}
        autoComplete="off"
        spellCheck={false}
        required
        maxLength={100}
        className="mt-3 w-full rounded-lg border border-slate-300 px-3 py-3 font-mono text-sm"
      />
      <WalletFill
        family={family}
        onAddress={(address) => {
          if (input.current) input.current.value = address;
        }}
      />
      <button
        type="submit"
        disabled={reviewing}
        className={cn(button, "mt-4 bg-slate-900 text-white hover:bg-slate-800")}
      >
        {reviewing ? "Checking…" : "Continue"}
      </button>
    </form>
  );
}
