"use client";

import { useActionState } from "react";
import type { FactorState } from "@/app/dashboard/(signed-in)/security/actions";
import { RecoveryCodes } from "./recovery-codes";
import { StepUpLink } from "./step-up-link";
import { secondaryButton } from "./button-classes";

/** One button acting on the user's factors; refusals (step-up first) and new codes appear beside it. */
export function FactorActionButton({
  action,
  label,
  hidden = {},
}: {
  action: (prev: FactorState, form: FormData) => Promise<FactorState>;
  label: string;
  /** Fields sent with the action (which passkey). */
  hidden?: Record<string, string>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" disabled={pending} className={secondaryButton}>
        {label}
      </button>
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error} {state.stepUp && <StepUpLink next="/dashboard/security" />}
        </p>
      )}
      {state.codes && <RecoveryCodes codes={state.codes} />}
    </form>
  );
}
