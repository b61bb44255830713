"use client";

import { useActionState, useState } from "react";
import type { KeyActionState } from "@/app/dashboard/(signed-in)/keys/actions";
import { ActionError } from "./action-error";
import { NewSecret } from "./new-secret";
import { secondaryButton } from "./button-classes";

type Action = (prev: KeyActionState, form: FormData) => Promise<KeyActionState>;

/** Roll (with how long the old secret keeps working) and Revoke (after a confirmation) for one active key. */
export function KeyRowActions({
  id,
  display,
  active,
  roll,
  revoke,
}: {
  id: string;
  display: string;
  /** Rendered for every key, so a secret just rolled stays on screen once the old key's row turns "expiring". */
  active: boolean;
  roll: Action;
  revoke: Action;
}) {
  const [rolled, rollAction, rolling] = useActionState(roll, {});
  const [revoked, revokeAction, revoking] = useActionState(revoke, {});
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="w-full space-y-2">
      <div className={active ? "flex flex-wrap items-end gap-2" : "hidden"}>
        <form action={rollAction} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="key" value={id} />
          <label className="text-xs text-slate-700">
            Old key keeps working
            <select
              name="overlap"
              defaultValue="now"
              className="mt-0.5 block rounded border border-slate-300 px-2 py-1 text-sm"
            >
              <option value="now">No, stop it now</option>
              <option value="1h">For 1 hour</option>
              <option value="24h">For 24 hours</option>
            </select>
          </label>
          <button type="submit" disabled={rolling} aria-label={`Roll key ${display}`} className={secondaryButton}>
            Roll
          </button>
        </form>
        {confirming ? (
          <form action={revokeAction} className="flex flex-wrap gap-2">
            <input type="hidden" name="key" value={id} />
            <button
              type="submit"
              disabled={revoking}
              className={
                "rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium " +
                "text-white hover:bg-red-600 disabled:opacity-60"
              }
            >
              Revoke key {display}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={secondaryButton}>
              Cancel
            </button>
          </form>
        ) : (
          <button
            type="button"
            onClick={() => setConfirming(true)}
            aria-label={`Revoke ${display}…`}
            className={secondaryButton}
          >
            Revoke…
          </button>
        )}
      </div>
      <ActionError error={rolled.error} stepUp={rolled.stepUp} next="/dashboard/keys" />
      <ActionError error={revoked.error} stepUp={revoked.stepUp} next="/dashboard/keys" />
      {rolled.secret && <NewSecret secret={rolled.secret} id={`rolled-${id}`} />}
    </div>
  );
}
