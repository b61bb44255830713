"use client";

import { useActionState } from "react";
import type { StepUpState } from "@/app/dashboard/(signed-in)/step-up/actions";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-slate-600";

/** The code field of step-up; a wrong code (or the limits' wait) is shown under it. */
export function StepUpForm({
  action,
  next,
}: {
  action: (prev: StepUpState, form: FormData) => Promise<StepUpState>;
  next: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="next" value={next} />
      <div>
        <label htmlFor="step-up-code" className="block text-sm font-medium text-slate-800">
          Authentication code
        </label>
        <input
          id="step-up-code"
          name="code"
          autoComplete="one-time-code"
          required
          aria-invalid={state.error ? true : undefined}
          aria-describedby={state.error ? "step-up-error" : undefined}
          className={field}
        />
        {state.error && (
          <p id="step-up-error" role="alert" className="mt-1 text-sm text-red-700">
            {state.error}
          </p>
        )}
      </div>
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Confirm
      </button>
    </form>
  );
}
