"use client";

import { useActionState } from "react";
import type { RefundActionState } from "@/app/dashboard/(signed-in)/refunds/actions";
import { ActionError } from "./action-error";
import { secondaryButton } from "./button-classes";

type Action = (prev: RefundActionState, form: FormData) => Promise<RefundActionState>;

/** Edit the refund policy: claim refunds opened by themselves for overpaid money above a threshold, and late money. */
export function RefundPolicyForm({
  action,
  overpaidAbove,
  refundLatePayments,
}: {
  action: Action;
  overpaidAbove: string | null;
  refundLatePayments: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-2">
      <label className="block text-sm text-slate-800">
        Refund overpayments above (USDT; 0.000000 for any excess)
        <input
          name="overpaid_above"
          defaultValue={overpaidAbove ?? ""}
          placeholder="never"
          aria-describedby={state.field === "overpaid_above" ? "overpaid_above-error" : undefined}
          className="mt-1 block w-full max-w-xs rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="refund_late_payments" defaultChecked={refundLatePayments} />
        Refund what arrives after a payment expired
      </label>
      <button type="submit" disabled={pending} className={secondaryButton}>
        Save refund policy
      </button>
      <ActionError
        id={state.field ? `${state.field}-error` : undefined}
        error={state.error}
        stepUp={state.stepUp}
        next="/dashboard/refunds"
      />
      {state.done && (
        <p role="status" className="text-sm text-emerald-800">
          {state.done}
        </p>
      )}
    </form>
  );
}
