"use client";

import { useActionState } from "react";
import type { PayoutActionState } from "@/app/dashboard/(signed-in)/payouts/actions";
import { ActionError } from "./action-error";
import { secondaryButton } from "./button-classes";

type Action = (prev: PayoutActionState, form: FormData) => Promise<PayoutActionState>;

/**
 * Edit the payout policy: review above an amount (blank: no limit), payouts to new destinations, and whether
 * the one approver of a single-owner team may approve their own payouts.
 */
export function PolicyForm({
  action,
  reviewAbove,
  reviewNewDestinations,
  allowSelfApproval,
}: {
  action: Action;
  reviewAbove: string | null;
  reviewNewDestinations: boolean;
  allowSelfApproval: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-2">
      <label className="block text-sm text-slate-800">
        Review payouts above (USDT)
        <input
          name="review_above"
          defaultValue={reviewAbove ?? ""}
          placeholder="no limit"
          aria-describedby={state.field === "review_above" ? "review_above-error" : undefined}
          className="mt-1 block w-full max-w-xs rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" name="review_new_destinations" defaultChecked={reviewNewDestinations} />
        Review payouts to destinations never paid before
      </label>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="allow_self_approval" defaultChecked={allowSelfApproval} className="mt-1" />
        <span>
          Let whoever asked for a payout approve it too. Only for a team with a single owner and no admin: review is
          then a one-person check. While the team has two or more owners or admins, a payout always needs someone else's
          approval, whatever this says.
        </span>
      </label>
      <button type="submit" disabled={pending} className={secondaryButton}>
        Save policy
      </button>
      <ActionError
        id={state.field ? `${state.field}-error` : undefined}
        error={state.error}
        stepUp={state.stepUp}
        next="/dashboard/payouts"
      />
      {state.done && (
        <p role="status" className="text-sm text-emerald-800">
          {state.done}
        </p>
      )}
    </form>
  );
}
