"use client";

import { type ReactNode, useActionState } from "react";
import type { MemberState } from "@/app/dashboard/(signed-in)/team/actions";
import { ActionError } from "./action-error";

/** One team action (change role, remove, revoke) with its outcome shown next to it. */
export function TeamActionForm({
  action,
  hidden,
  children,
  label,
}: {
  action: (prev: MemberState, form: FormData) => Promise<MemberState>;
  hidden: Record<string, string>;
  children: ReactNode;
  label: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} aria-label={label} className="flex flex-wrap items-center gap-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <fieldset disabled={pending} className="contents">
        {children}
      </fieldset>
      <div className="w-full">
        <ActionError error={state.error} stepUp={state.stepUp} next="/dashboard/team" />
      </div>
      {state.done && (
        <p role="status" className="w-full text-sm text-emerald-800">
          {state.done}
        </p>
      )}
    </form>
  );
}
