"use client";

import { useActionState } from "react";
import type { CreateKeyState } from "@/app/dashboard/(signed-in)/keys/actions";

/** "Create key"; the new secret shown once, selectable, with a reminder that it will not be shown again. */
export function CreateKeyForm({
  action,
}: {
  action: (prev: CreateKeyState, form: FormData) => Promise<CreateKeyState>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-3">
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
      >
        Create key
      </button>
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      {state.secret && (
        <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
          <label htmlFor="new-key-secret" className="font-medium text-emerald-900">
            New secret key (shown only this once)
          </label>
          <input
            id="new-key-secret"
            readOnly
            value={state.secret}
            className="mt-1 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
          />
        </div>
      )}
    </form>
  );
}
