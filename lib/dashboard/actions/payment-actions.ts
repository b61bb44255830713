import { DomainError, invalidRequest } from "@/lib/kernel/domain-error";
import type { Db } from "@/lib/platform/db/client";
import type { Mode } from "@/lib/kernel/mode";
import { getPayment } from "@/lib/money-in/payments/get-payment";
import { prepareMine, prepareReorg } from "@/lib/chains/sandbox/control-sandbox-chain";
import { mineBody, reorgBody } from "@/lib/http/api/sandbox-schemas";
import { prepareSimulatedPayment } from "@/lib/money-in/payments/simulate-payment";
import { hasSandboxChainGrant } from "@/lib/identity/api-keys/sandbox-chain-grant";
import { type Actor, recordAudit } from "@/lib/identity/users/audit";
import { resendDelivery } from "@/lib/notify/webhooks/resend-delivery";

/** What an action form shows: a message on success, or the error (an API message the user can act on). */
export type ActionOutcome = { message?: string; error?: string };

export const SANDBOX_ONLY = "Only sandbox payments can be paid, mined or reorganized from here.";
export const NO_CHAIN_GRANT =
  "Reorganizing a sandbox chain changes it for every merchant on it: " +
  "the operator allows it per merchant (the sandbox:chains scope, given with the CLI).";

const owner = (actor: Actor, mode: Mode) => ({ merchantId: actor.merchantId, mode });

/** An DomainError (a refusal the user can act on) becomes the form's error; anything else is a fault. */
async function outcome(run: () => Promise<string>): Promise<ActionOutcome> {
  try {
    return { message: await run() };
  } catch (err) {
    if (err instanceof DomainError) return { error: err.message };
    throw err;
  }
}

/** "Pay it": the sandbox payer's transfer of what is owed (as POST /v1/sandbox/payments/:id/simulate). */
export function payInSandbox(db: Db, actor: Actor, mode: Mode, paymentId: string): Promise<ActionOutcome> {
  if (mode !== "sandbox") return Promise.resolve({ error: SANDBOX_ONLY });
  return outcome(async () => {
    const send = await prepareSimulatedPayment(db, owner(actor, mode), paymentId);
    const sent = await send();
    await recordAudit(db, actor, {
      action: "sandbox.payment_paid",
      target: paymentId,
      details: { chain: sent.chain, amount: sent.amount, tx_hash: sent.tx_hash },
    });
    return `Sent ${sent.amount} USDT: ${sent.tx_hash}`;
  });
}

/** The payment's sandbox chain, after checking the payment is this merchant's in this (sandbox) mode. */
async function sandboxChainOf(db: Db, actor: Actor, mode: Mode, paymentId: string): Promise<string> {
  const payment = await getPayment(db, owner(actor, mode), paymentId);
  if (!payment.chain)
    throw new DomainError("invalid_request_error", "This payment has no network yet.", { param: "id" });
  return payment.chain;
}

const firstIssue = (e: { issues: { message: string }[] }) => e.issues[0]!.message;

/** "Mine blocks" on the payment's sandbox chain (as POST /v1/sandbox/chains/:chain/mine). */
export function mineForPayment(
  db: Db,
  actor: Actor,
  mode: Mode,
  paymentId: string,
  blocks: number,
): Promise<ActionOutcome> {
  if (mode !== "sandbox") return Promise.resolve({ error: SANDBOX_ONLY });
  const body = mineBody.safeParse({ blocks });
  if (!body.success) return Promise.resolve({ error: firstIssue(body.error) });
  return outcome(async () => {
    const chain = await sandboxChainOf(db, actor, mode, paymentId);
    const mined = await (await prepareMine(db, chain, body.data.blocks ?? 1))();
    await recordAudit(db, actor, { action: "sandbox.blocks_mined", target: paymentId, details: { chain, blocks } });
    return `Mined ${blocks} blocks on ${chain}; head ${mined.head}.`;
  });
}

/**
 * "Reorg": replaces the newest blocks of the payment's sandbox chain (as POST /v1/sandbox/chains/:chain/reorg),
 * only for a merchant the operator gave the chains' controls (as the API asks `sandbox:chains`).
 */
export function reorgForPayment(
  db: Db,
  actor: Actor,
  mode: Mode,
  paymentId: string,
  depth: number,
): Promise<ActionOutcome> {
  if (mode !== "sandbox") return Promise.resolve({ error: SANDBOX_ONLY });
  const body = reorgBody.safeParse({ depth });
  if (!body.success) return Promise.resolve({ error: firstIssue(body.error) });
  return outcome(async () => {
    if (!(await hasSandboxChainGrant(db, actor.merchantId))) throw invalidRequest(NO_CHAIN_GRANT);
    const chain = await sandboxChainOf(db, actor, mode, paymentId);
    const done = await (await prepareReorg(db, chain, body.data.depth))();
    await recordAudit(db, actor, { action: "sandbox.chain_reorganized", target: paymentId, details: { chain, depth } });
    return `Replaced the newest ${depth} blocks on ${chain}; head ${done.head}.`;
  });
}

/** "Resend": one delivery sent again now, audited in the transaction that records its attempt. */
export function resendFromDashboard(db: Db, actor: Actor, mode: Mode, deliveryId: string): Promise<ActionOutcome> {
  return outcome(async () => {
    const result = await resendDelivery(db, owner(actor, mode), deliveryId, (tx, r) =>
      recordAudit(tx, actor, {
        action: "webhook_event.resent",
        target: deliveryId,
        details: { event: r.eventId, endpoint: r.endpointId, status_code: r.statusCode },
      }),
    );
    return result.success
      ? `Resent: the endpoint answered ${result.statusCode}.`
      : `Resent, but it failed: ${result.statusCode ? `HTTP ${result.statusCode}` : (result.error ?? "no answer")}.`;
  });
}
