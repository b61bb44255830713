import { notFound } from "next/navigation";
import { ActionForm } from "@/components/dashboard/action-form";
import { DeliveriesList } from "@/components/dashboard/deliveries-list";
import { DepositsList } from "@/components/dashboard/deposits-list";
import { CreateRefundForm } from "@/components/dashboard/create-refund-form";
import { PaymentTimeline } from "@/components/dashboard/payment-timeline";
import { RefundList } from "@/components/dashboard/refund-list";
import { StatusBadge, UtcTime } from "@/components/dashboard/status-badge";
import { requirePageUser } from "@/lib/identity/auth/guard";
import { dashboardMode } from "@/lib/identity/auth/mode";
import { familyTraits } from "@/lib/chains/family-traits";
import { NETWORK } from "@/lib/money-in/checkout/networks";
import { config } from "@/lib/platform/config/env";
import { loadPaymentDetail } from "@/lib/dashboard/views/payment-detail";
import { getDb } from "@/lib/platform/db/client";
import { can } from "@/lib/identity/users/roles";
import { hasSandboxChainGrant } from "@/lib/identity/api-keys/sandbox-chain-grant";
import { createRefundAction } from "../../refunds/actions";
import { mineBlocks, payIt, reorgChain, resendWebhook } from "../actions";

export const dynamic = "force-dynamic";

const heading = "mb-3 text-lg font-semibold text-slate-900";

/** One payment of the selected mode; another merchant's or mode's is 404 (docs/DASHBOARD.md#payments-and-events). */
export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const [user, mode, { id }] = await Promise.all([requirePageUser("payments:read"), dashboardMode(), params]);
  const detail = await loadPaymentDetail(getDb(), { merchantId: user.merchantId, mode }, id, config().publicBaseUrl);
  if (!detail) notFound();
  const p = detail.payment;
  const ctx = { payment: p.id };
  const sandboxControls = mode === "sandbox" && can(user.role, "payments:write");
  // A reorg changes the shared chain for every merchant on it: only where the operator granted sandbox:chains.
  const chainControls = sandboxControls && (await hasSandboxChainGrant(getDb(), user.merchantId));
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">
          Payment <span className="font-mono tabular-nums">{p.amount} USDT</span>
        </h1>
        <p className="break-all font-mono text-xs text-slate-600">{p.id}</p>
      </div>
      <dl
        className={
          "grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 rounded-lg " +
          "bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200"
        }
      >
        <dt className="text-slate-600">Status</dt>
        <dd data-testid="payment-status">
          <StatusBadge status={p.status} />
        </dd>
        <dt className="text-slate-600">Amount</dt>
        <dd className="font-mono tabular-nums">{p.amount} USDT</dd>
        <dt className="text-slate-600">Received</dt>
        <dd className="font-mono tabular-nums">{p.amount_received} USDT</dd>
        <dt className="text-slate-600">Network</dt>
        <dd>{p.chain ? NETWORK[p.chain].name : "not chosen yet (the payer picks one at checkout)"}</dd>
        <dt className="text-slate-600">Address</dt>
        <dd className="break-all font-mono text-xs" data-testid="payment-address">
          {p.deposit_address ?? "—"}
        </dd>
        <dt className="text-slate-600">Confirmations</dt>
        <dd>{p.confirmations}</dd>
        {p.description !== undefined && (
          <>
            <dt className="text-slate-600">Description</dt>
            <dd className="break-words">{p.description}</dd>
          </>
        )}
        <dt className="text-slate-600">Created</dt>
        <dd>
          <UtcTime iso={p.created_at} />
        </dd>
        <dt className="text-slate-600">Expires</dt>
        <dd>
          <UtcTime iso={p.expires_at} />
        </dd>
        <dt className="text-slate-600">Metadata</dt>
        <dd>
          {Object.keys(p.metadata).length === 0 ? (
            "none"
          ) : (
            <pre className="whitespace-pre-wrap font-mono text-xs [overflow-wrap:anywhere]">
              {JSON.stringify(p.metadata, null, 2)}
            </pre>
          )}
        </dd>
      </dl>
      {sandboxControls && (
        <section
          aria-labelledby="sandbox-heading"
          className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4"
        >
          <h2 id="sandbox-heading" className="text-lg font-semibold text-amber-950">
            Sandbox controls
          </h2>
          <p className="text-sm text-amber-900">
            Test the payment's life without a wallet. These exist in sandbox only.
          </p>
          {p.chain ? (
            <>
              <ActionForm action={payIt} label="Pay it" hidden={ctx} />
              <ActionForm
                action={mineBlocks}
                label="Mine blocks"
                hidden={ctx}
                number={{ name: "blocks", label: "Blocks", value: 40, min: 1, max: 1000 }}
              />
              {chainControls && p.chain && familyTraits(p.chain).sandboxReorgs && (
                <ActionForm
                  action={reorgChain}
                  label="Reorg"
                  hidden={ctx}
                  number={{ name: "depth", label: "Depth", value: 2, min: 1, max: 64 }}
                />
              )}
            </>
          ) : (
            <p className="text-sm text-amber-900">Open its checkout and choose a network first.</p>
          )}
        </section>
      )}
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading" className={heading}>
          Timeline
        </h2>
        <PaymentTimeline entries={detail.timeline} />
      </section>
      <section aria-labelledby="deposits-heading">
        <h2 id="deposits-heading" className={heading}>
          Deposits
        </h2>
        <DepositsList deposits={detail.deposits} />
      </section>
      {can(user.role, "refunds:read") && (
        <section aria-labelledby="refunds-heading" className="space-y-3">
          <h2 id="refunds-heading" className={heading}>
            Refunds
          </h2>
          <p className="text-sm text-slate-700">
            Refunded <span className="font-mono tabular-nums">{p.amount_refunded} USDT</span>; refundable now{" "}
            <span className="font-mono tabular-nums" data-testid="refundable">
              {detail.refundable} USDT
            </span>{" "}
            (confirmed transfers only).
          </p>
          <RefundList refunds={detail.refunds} label="Refunds of this payment" />
          {can(user.role, "refunds:write") && detail.refundable !== "0.000000" && (
            <CreateRefundForm action={createRefundAction} payment={p.id} refundable={detail.refundable} />
          )}
        </section>
      )}
      {can(user.role, "webhooks:read") && (
        <section aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading" className={heading}>
            Webhook deliveries
          </h2>
          <DeliveriesList
            deliveries={detail.deliveries}
            resend={can(user.role, "webhooks:write") ? resendWebhook : undefined}
            context={ctx}
          />
        </section>
      )}
    </div>
  );
}
