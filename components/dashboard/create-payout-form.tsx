"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import type { PayoutActionState } from "@/app/dashboard/(signed-in)/payouts/actions";
import { ActionError } from "./action-error";

type Action = (prev: PayoutActionState, form: FormData) => Promise<PayoutActionState>;
const input = "mt-1 block w-full min-w-0 rounded border border-slate-300 px-2 py-1.5 text-sm";
const FIELDS = [
  { name: "to_address", label: "Destination address", placeholder: "0x…, T…, or a Solana address" },
  { name: "amount", label: "Amount (USDT)", placeholder: "25.000000" },
  { name: "description", label: "Description (optional)", placeholder: "" },
] as const;

/** New payout: chain, destination, amount, description and metadata; the API's error next to its field. */
export function CreatePayoutForm({ action, chains }: { action: Action; chains: readonly string[] }) {
  const [state, formAction, pending] = useActionState(action, {});
  const errorFor = (field: string) =>
    state.field === field ? <ActionError id={`${field}-error`} error={state.error} next="/dashboard/payouts" /> : null;
  const described = (field: string) => (state.field === field ? `${field}-error` : undefined);
  // A new key per refusal: the fields remount with what was typed (React resets a form after its action).
  const [attempt, setAttempt] = useState(0);
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    setAttempt(attempt + 1);
  }
  const typed = (name: string) => state.values?.[name] ?? "";
  return (
    <form
      key={attempt}
      action={formAction}
      className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 className="text-lg font-semibold text-slate-900">New payout</h2>
      <label className="block text-sm text-slate-800">
        Chain
        <select
          name="chain"
          defaultValue={typed("chain") || undefined}
          className={input}
          aria-describedby={described("chain")}
        >
          {chains.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      {errorFor("chain")}
      {FIELDS.map((f) => (
        <div key={f.name}>
          <label className="block text-sm text-slate-800">
            {f.label}
            <input
              name={f.name}
              defaultValue={typed(f.name)}
              placeholder={f.placeholder}
              aria-invalid={state.field === f.name || undefined}
              aria-describedby={described(f.name)}
              className={`${input} ${f.name === "to_address" ? "font-mono" : ""}`}
            />
          </label>
          {errorFor(f.name)}
        </div>
      ))}
      <label className="block text-sm text-slate-800">
        Metadata (optional JSON object)
        <textarea
          name="metadata"
          rows={2}
          defaultValue={typed("metadata")}
          aria-describedby={described("metadata")}
          className={`${input} font-mono`}
        />
      </label>
      {errorFor("metadata")}
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Create payout
      </button>
      {state.error && !state.field && (
        <ActionError error={state.error} stepUp={state.stepUp} next="/dashboard/payouts" />
      )}
      {state.done && (
        <p role="status" className="text-sm text-emerald-800">
          {state.done}{" "}
          <Link href={`/dashboard/payouts/${state.id}`} className="underline">
            View payout
          </Link>
        </p>
      )}
    </form>
  );
}
