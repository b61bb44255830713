"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { ActionState } from "@/app/dashboard/(signed-in)/webhooks/actions";

const base = "rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60";
const styles = {
  primary: `${base} bg-slate-900 text-white hover:bg-slate-700`,
  plain: `${base} border border-slate-300 text-slate-800 hover:bg-slate-50`,
  danger: `${base} bg-red-700 text-white hover:bg-red-600`,
};

/**
 * One server action behind one button, its hidden fields, and its answer next to it. With `confirm`, the
 * first press only asks (a second button does it; Cancel backs out), for what cannot be undone.
 */
export function ActionButton({
  action,
  fields,
  label,
  accessibleName,
  confirm,
  tone = "plain",
}: {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  fields: Record<string, string>;
  label: string;
  accessibleName?: string;
  confirm?: { question: string; label: string };
  tone?: keyof typeof styles;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [asking, setAsking] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // Keyboard users land on the confirming button (the one they pressed is gone).
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-2">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {confirm && !asking ? (
        <button type="button" aria-label={accessibleName} className={styles[tone]} onClick={() => setAsking(true)}>
          {label}
        </button>
      ) : confirm ? (
        <>
          <span className="text-sm text-slate-800">{confirm.question}</span>
          <button ref={confirmButton} type="submit" disabled={pending} className={styles.danger}>
            {confirm.label}
          </button>
          <button type="button" className={styles.plain} onClick={() => setAsking(false)}>
            Cancel
          </button>
        </>
      ) : (
        <button type="submit" disabled={pending} aria-label={accessibleName} className={styles[tone]}>
          {pending ? `${label}…` : label}
        </button>
      )}
      {state.message && (
        <p role="status" className="w-full text-sm text-slate-700">
          {state.message}
        </p>
      )}
      {state.error && (
        <p role="alert" className="w-full text-sm text-red-700">
          {state.error}
        </p>
      )}
    </form>
  );
}
