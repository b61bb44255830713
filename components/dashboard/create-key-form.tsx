"use client";

import { useActionState } from "react";
import type { KeyActionState } from "@/app/dashboard/(signed-in)/keys/actions";
import { ActionError } from "./action-error";
import { NewSecret } from "./new-secret";

/**
 * "Create key" with the scopes the user's role may give (all checked by default), and the ones it may not
 * named; the new secret shown once with a copy button.
 */
export function CreateKeyForm({
  action,
  mode,
  scopes,
  withheld,
}: {
  action: (prev: KeyActionState, form: FormData) => Promise<KeyActionState>;
  mode: string;
  scopes: string[];
  withheld: string[];
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <input type="hidden" name="scopes-sent" value="1" />
      <fieldset aria-describedby={state.field === "scopes" ? "scopes-error" : undefined}>
        <legend className="text-sm font-medium text-slate-900">Scopes of the new {mode} key</legend>
        <div className="mt-2 grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
          {scopes.map((s) => (
            <label key={s} className="flex items-center gap-2 font-mono text-xs">
              <input type="checkbox" name="scope" value={s} defaultChecked />
              {s}
            </label>
          ))}
        </div>
        {withheld.length > 0 && (
          <p className="mt-2 text-xs text-slate-600">
            Not offered, as your role cannot use them: {withheld.join(", ")}. A key never does more than its creator
            may.
          </p>
        )}
      </fieldset>
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Create key
      </button>
      <ActionError
        id={state.field === "scopes" ? "scopes-error" : undefined}
        error={state.error}
        stepUp={state.stepUp}
        next="/dashboard/keys"
      />
      {state.secret && <NewSecret secret={state.secret} />}
    </form>
  );
}
