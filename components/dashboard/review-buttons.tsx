"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { PayoutActionState } from "@/app/dashboard/(signed-in)/payouts/actions";
import { ActionError } from "./action-error";
import { cn } from "@/components/class-names";

type Action = (prev: PayoutActionState, form: FormData) => Promise<PayoutActionState>;

/** Approve / Reject for one payout under review; the outcome or the refusal (step-up first) beside them. */
export function ReviewButtons({ id, action, next }: { id: string; action: Action; next: string }) {
  const [state, formAction, pending] = useActionState(action, {});
  // Decided: the outcome replaces the buttons (the page is not re-rendered, so the row stays to say it).
  if (state.done)
    return (
      <p role="status" className="text-sm text-emerald-800">
        {state.done}{" "}
        <Link href={`/dashboard/payouts/${id}`} className="underline">
          View payout
        </Link>
      </p>
    );
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="payout" value={id} />
      <button
        type="submit"
        name="decision"
        value="approve"
        disabled={pending}
        className={
          "rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium " +
          "text-white hover:bg-emerald-600 disabled:opacity-60"
        }
      >
        Approve
      </button>
      <button
        type="submit"
        name="decision"
        value="reject"
        disabled={pending}
        className={cn(
          "rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium",
          "text-red-800 hover:bg-red-50 disabled:opacity-60",
        )}
      >
        Reject
      </button>
      <ActionError error={state.error} stepUp={state.stepUp} next={next} />
    </form>
  );
}
