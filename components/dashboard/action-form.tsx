"use client";

import { useActionState, useId } from "react";
import type { ActionOutcome } from "@/lib/dashboard/actions/payment-actions";

/**
 * One button (and at most one number field) posting to a server action; the outcome is shown under it,
 * announced to screen readers. Hidden fields name the object the action applies to.
 */
export function ActionForm({
  action,
  label,
  hidden,
  number,
}: {
  action: (prev: ActionOutcome, form: FormData) => Promise<ActionOutcome>;
  label: string;
  hidden: Record<string, string>;
  number?: { name: string; label: string; value: number; min: number; max: number };
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const id = useId();
  return (
    <form action={formAction} className="space-y-1">
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="flex flex-wrap items-end gap-2">
        {number && (
          <label htmlFor={`${id}-n`} className="text-sm text-slate-700">
            {number.label}
            <input
              id={`${id}-n`}
              name={number.name}
              type="number"
              inputMode="numeric"
              defaultValue={number.value}
              min={number.min}
              max={number.max}
              required
              className="ml-2 w-20 rounded-md border border-slate-300 px-2 py-1 text-base"
            />
          </label>
        )}
        <button
          type="submit"
          disabled={pending}
          className={
            "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium " +
            "text-white hover:bg-slate-700 disabled:opacity-60"
          }
        >
          {pending ? `${label}…` : label}
        </button>
      </div>
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      {state.message && (
        <p role="status" className="break-all text-sm text-emerald-800">
          {state.message}
        </p>
      )}
    </form>
  );
}
