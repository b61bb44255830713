import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/dashboard/action-form";
import { StatusBadge, UtcTime } from "@/components/dashboard/status-badge";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { can } from "@/lib/identity/users/roles";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import { getDb } from "@/lib/platform/db/client";
import { loadRefundDetail } from "@/lib/dashboard/actions/dashboard-refunds";
import { RefundClaimLink } from "@/components/dashboard/refund-claim-link";
import { cancelRefundAction, regenerateClaimLinkAction, showClaimLinkAction } from "../actions";

export const dynamic = "force-dynamic";

/** One refund of the selected mode: where it goes, its transaction, and Cancel while it is not sent. */
export default async function RefundPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, mode, { id }] = await Promise.all([requirePageUser("refunds:read"), dashboardMode(), params]);
  const r = await loadRefundDetail(getDb(), { merchantId: user.merchantId, mode }, id);
  if (!r) notFound();
  const refunder = can(user.role, "refunds:write");
  const cancelable = (r.status === "requires_action" || r.status === "pending") && refunder;
  const row = (label: string, value: React.ReactNode) => (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-all">{value}</dd>
    </>
  );
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">
          Refund <span className="font-mono tabular-nums">{r.amount} USDT</span>
        </h1>
        <p className="break-all font-mono text-xs text-slate-600">{r.id}</p>
      </div>
      <dl
        className={
          "grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 rounded-lg " +
          "bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200"
        }
      >
        {row(
          "Status",
          <span data-testid="refund-status">
            <StatusBadge status={r.status} />
          </span>,
        )}
        {row(
          "Payment",
          <Link href={`/dashboard/payments/${r.payment}`} className="font-mono text-xs underline">
            {r.payment}
          </Link>,
        )}
        {row("Network", NETWORK[r.chain].name)}
        {row("Destination", r.destination)}
        {row("To", <span className="font-mono text-xs">{r.to_address ?? "waiting for the payer"}</span>)}
        {r.claim_pending &&
          row(
            "Claim",
            `waiting for the payer${r.claim_code_required ? " (link and one-time code)" : ""}` +
              (refunder ? "" : ": only a refunder may see the link"),
          )}
        {r.expires_at && r.status === "requires_action" && row("Claim by", <UtcTime iso={r.expires_at} />)}
        {row("Reason", r.reason?.replaceAll("_", " ") ?? "—")}
        {row(
          "Transaction",
          r.tx_hash ? (
            r.explorer_url ? (
              <a
                href={r.explorer_url}
                target="_blank"
                rel="noreferrer noopener"
                className="font-mono text-xs underline"
              >
                {r.tx_hash}
              </a>
            ) : (
              <span className="font-mono text-xs">{r.tx_hash}</span>
            )
          ) : (
            "not sent yet"
          ),
        )}
        {r.failure_message && row("Why", r.failure_message)}
        {row("Created", <UtcTime iso={r.created_at} />)}
        {r.succeeded_at && row("Succeeded", <UtcTime iso={r.succeeded_at} />)}
      </dl>
      {r.claim_pending && refunder && (
        <RefundClaimLink
          refund={r.id}
          codeRequired={r.claim_code_required}
          show={showClaimLinkAction}
          regenerate={regenerateClaimLinkAction}
        />
      )}
      {cancelable && <ActionForm action={cancelRefundAction} label="Cancel refund" hidden={{ refund: r.id }} />}
    </div>
  );
}
