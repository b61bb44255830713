"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { AcceptState } from "@/app/dashboard/invite/[token]/actions";

const field = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-slate-600";

/** Password and confirmation; each error under its field; once accepted, the way to sign in. */
export function AcceptInvitationForm({
  action,
  token,
}: {
  action: (prev: AcceptState, form: FormData) => Promise<AcceptState>;
  token: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  if (state.email)
    return (
      <div role="status" className="space-y-3 text-sm">
        <p>Your account {state.email} is ready.</p>
        <Link
          href="/dashboard/sign-in"
          className="inline-block rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700"
        >
          Sign in
        </Link>
      </div>
    );
  const error = (name: NonNullable<AcceptState["field"]>) =>
    state.field === name && (
      <p id={`${name}-error`} role="alert" className="mt-1 text-sm text-red-700">
        {state.error}
      </p>
    );
  const invalid = (name: AcceptState["field"]) =>
    state.field === name ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {};
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-800">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          {...invalid("password")}
          className={field}
        />
        {error("password")}
      </div>
      <div>
        <label htmlFor="confirmation" className="block text-sm font-medium text-slate-800">
          Confirm password
        </label>
        <input
          id="confirmation"
          name="confirmation"
          type="password"
          autoComplete="new-password"
          required
          {...invalid("confirmation")}
          className={field}
        />
        {error("confirmation")}
      </div>
      {error("form")}
      <button
        type="submit"
        disabled={pending}
        className={
          "w-full rounded-md bg-slate-900 px-4 py-2 font-medium text-white hover:bg-slate-700 disabled:opacity-60"
        }
      >
        Create account
      </button>
    </form>
  );
}
