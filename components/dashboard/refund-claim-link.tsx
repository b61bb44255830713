"use client";

import { useActionState } from "react";
import type { ClaimLinkState } from "@/app/dashboard/(signed-in)/refunds/actions";
import { ActionError } from "./action-error";

type Action = (prev: ClaimLinkState, form: FormData) => Promise<ClaimLinkState>;
const button =
  "rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 disabled:opacity-60";

/**
 * An open claim's link, for refunders only: hidden until asked for (each showing is audited), and regenerated
 * when it may have leaked (the old link and code stop working at once; a new code is shown once).
 */
export function RefundClaimLink({
  refund,
  codeRequired,
  show,
  regenerate,
}: {
  refund: string;
  codeRequired: boolean;
  show: Action;
  regenerate: Action;
}) {
  const [shown, showAction, showing] = useActionState(show, {});
  const [renewed, renewAction, renewing] = useActionState(regenerate, {});
  const next = `/dashboard/refunds/${refund}`;
  const secrets = renewed.claimUrl ? renewed : shown;
  return (
    <section
      aria-label="Claim link"
      className="space-y-3 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200"
    >
      <p className="text-slate-700">
        The claim link moves the money to whoever opens it first: send it only to the payer. Showing it is recorded in
        the audit log.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <form action={showAction}>
          <input type="hidden" name="refund" value={refund} />
          <button type="submit" disabled={showing} className={button}>
            Show claim link
          </button>
        </form>
        <form action={renewAction} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="refund" value={refund} />
          <label className="flex items-center gap-2 text-slate-800">
            <input type="checkbox" name="require_claim_code" defaultChecked={codeRequired} />
            Require a one-time code
          </label>
          <button type="submit" disabled={renewing} className={button}>
            Regenerate link
          </button>
        </form>
      </div>
      <ActionError error={renewed.error ?? shown.error} stepUp={renewed.stepUp ?? shown.stepUp} next={next} />
      {secrets.claimUrl && (
        <div role="status" className="space-y-1 break-all">
          <p>
            {renewed.claimUrl ? "New link (the old one no longer works): " : "Link: "}
            <span className="font-mono text-xs" data-testid="claim-url">
              {secrets.claimUrl}
            </span>
          </p>
          {secrets.claimCode && (
            <p>
              Code, to send by another channel (shown only now):{" "}
              <span className="font-mono" data-testid="claim-code">
                {secrets.claimCode}
              </span>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
