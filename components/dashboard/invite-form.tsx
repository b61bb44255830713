"use client";

import { useActionState, useState } from "react";
import type { InviteState } from "@/app/dashboard/(signed-in)/team/actions";
import { USER_ROLES } from "@/lib/identity/users/roles";
import { ActionError } from "./action-error";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-slate-600";

/** Invite: email and role → the one-time link to copy (and, with SMTP, the email's outcome). */
export function InviteForm({ action }: { action: (prev: InviteState, form: FormData) => Promise<InviteState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  const [copied, setCopied] = useState(false);
  return (
    <form action={formAction} className="space-y-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Invite a teammate</h2>
      <div className="flex flex-wrap gap-3">
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor="invite-email" className="block text-sm font-medium text-slate-800">
            Email
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            required
            defaultValue={state.typed?.email}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? "invite-error" : undefined}
            className={field}
          />
        </div>
        <div className="basis-32">
          <label htmlFor="invite-role" className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue={state.typed?.role ?? "developer"} className={field}>
            {USER_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ActionError id="invite-error" error={state.error} stepUp={state.stepUp} next="/dashboard/team" />
      <button
        type="submit"
        disabled={pending}
        className={
          "rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Invite
      </button>
      {state.link && (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
          <label htmlFor="invite-link" className="block font-medium text-emerald-900">
            Invitation link for {state.email} (works once, for 7 days)
          </label>
          <input
            id="invite-link"
            readOnly
            value={state.link}
            className="block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
          />
          <button
            type="button"
            onClick={() => navigator.clipboard?.writeText(state.link!).then(() => setCopied(true))}
            className="rounded-md border border-emerald-400 px-3 py-1 text-sm font-medium text-emerald-900"
          >
            {copied ? "Copied" : "Copy link"}
          </button>
          {state.mailed && <p>Emailed to {state.email}.</p>}
          {state.mailError && (
            <p className="text-red-700">The email could not be sent ({state.mailError}). Send the link yourself.</p>
          )}
        </div>
      )}
    </form>
  );
}
