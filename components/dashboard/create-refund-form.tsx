"use client";

import Link from "next/link";
import { useActionState, useState } from "react";
import type { RefundActionState } from "@/app/dashboard/(signed-in)/refunds/actions";
import { ActionError } from "./action-error";

type Action = (prev: RefundActionState, form: FormData) => Promise<RefundActionState>;
const input = "mt-1 block w-full min-w-0 rounded border border-slate-300 px-2 py-1.5 text-sm";
const REASONS = ["requested_by_customer", "duplicate", "overpayment", "late_payment", "fraudulent"];

/**
 * Refund a payment: amount (all that is left by default), reason, and where it goes: a claim link for the
 * payer (the default, docs/REFUNDS.md), back to the sender, or an address. The API's error next to its field.
 */
export function CreateRefundForm({
  action,
  payment,
  refundable,
}: {
  action: Action;
  payment: string;
  refundable: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [destination, setDestination] = useState("claim");
  const next = `/dashboard/payments/${payment}`;
  const errorFor = (field: string) =>
    state.field === field ? <ActionError id={`refund-${field}-error`} error={state.error} next={next} /> : null;
  return (
    <form action={formAction} className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <input type="hidden" name="payment" value={payment} />
      <label className="block text-sm text-slate-800">
        Amount (USDT)
        <input
          name="amount"
          placeholder={refundable}
          defaultValue={state.values?.amount ?? ""}
          aria-invalid={state.field === "amount" || undefined}
          aria-describedby={state.field === "amount" ? "refund-amount-error" : undefined}
          className={input}
        />
        <span className="text-xs text-slate-600">Empty: all that is left ({refundable} USDT).</span>
      </label>
      {errorFor("amount")}
      <label className="block text-sm text-slate-800">
        Reason
        <select name="reason" defaultValue={state.values?.reason ?? ""} className={input}>
          <option value="">none</option>
          {REASONS.map((r) => (
            <option key={r} value={r}>
              {r.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="text-sm text-slate-800">
        <legend>Send it to</legend>
        {[
          ["claim", "A claim link: the payer gives their address (safest)"],
          ["sender", "The address the payment came from (not if they paid from an exchange)"],
          ["address", "An address I enter"],
        ].map(([value, label]) => (
          <label key={value} className="mt-1 flex items-center gap-2">
            <input
              type="radio"
              name="destination"
              value={value}
              checked={destination === value}
              onChange={() => setDestination(value!)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {errorFor("destination")}
      {destination === "claim" && (
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="require_claim_code" defaultChecked={state.values?.require_claim_code === "on"} />
          Also require a one-time code that I send the payer separately (email, SMS)
        </label>
      )}
      {destination === "address" && (
        <label className="block text-sm text-slate-800">
          Refund address
          <input
            name="to_address"
            defaultValue={state.values?.to_address ?? ""}
            aria-invalid={state.field === "to_address" || undefined}
            aria-describedby={state.field === "to_address" ? "refund-to_address-error" : undefined}
            className={`${input} font-mono`}
          />
        </label>
      )}
      {errorFor("to_address")}
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Refund
      </button>
      {state.error && state.field !== "amount" && state.field !== "to_address" && state.field !== "destination" && (
        <ActionError error={state.error} stepUp={state.stepUp} next={next} />
      )}
      {state.done && (
        <div role="status" className="space-y-1 text-sm text-emerald-800">
          <p>
            {state.done}{" "}
            <Link href={`/dashboard/refunds/${state.id}`} className="underline">
              View refund
            </Link>
          </p>
          {state.claimUrl && (
            <p className="break-all">
              Send the payer this link: <span className="font-mono">{state.claimUrl}</span>
            </p>
          )}
          {state.claimCode && (
            <p>
              And, by another channel, this code (shown only now):{" "}
              <span className="font-mono" data-testid="claim-code">
                {state.claimCode}
              </span>
            </p>
          )}
        </div>
      )}
    </form>
  );
}
