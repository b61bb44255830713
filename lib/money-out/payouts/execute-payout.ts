import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/kernel/mode";
import { config as appConfig } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { DenyListUnreadableError, isDenied } from "./deny-list";
import { reviewReason } from "./payout-policy";
import { sanctionedOrUnknown } from "./sanctions-oracle";
import { lockPayout, transitionPayout } from "./transition-payout";

export type PayoutStep = "queued" | "waiting_for_liquidity" | "blocked" | "review_required" | "nothing_to_do";

const RETRY_MS = 10_000;

/**
 * Takes a `pending` payout one step (job `execute_payout`, enqueued with it and on approval): blocked if its
 * destination is denied; held for review by the merchant's policy; otherwise its transfer from the treasury is
 * queued in the outbound journal (the engine signs it, and the payout becomes `processing` then). If the
 * treasury's USDT, less the payouts already queued, does not cover it, it waits in `pending`, sweeps are asked
 * for at once, and it tries again shortly; it never fails for liquidity. Payouts of one (mode, chain) queue
 * one at a time (an advisory lock), so two never count the same liquidity.
 */
export async function executePayout(db: Db, payoutId: string): Promise<PayoutStep> {
  const [peek] = await query<{
    mode: Mode;
    chain: Chain;
    status: string;
    outbound_id: string | null;
    to_address: string;
  }>(db, "select mode, chain, status, outbound_id, to_address from payouts where id = $1", [payoutId]);
  if (peek?.status !== "pending" || peek.outbound_id) return "nothing_to_do";
  const config = await chainConfig(db, peek.mode, peek.chain);
  if (!config) return retryLater(db, payoutId, "its chain is not running");
  const treasury = await roleAddress(db, config.mode, config.chain, "treasury");
  // Network reads before the transaction: the chain's sanctions oracle (unreadable, the payout waits), and
  // the treasury's balance, less the payout transfers it has not yet left (counted inside the transaction).
  const sanctioned = await sanctionedOrUnknown(config, payoutId, peek.to_address);
  if (sanctioned === null) return retryLater(db, payoutId, "the sanctions oracle cannot be read");
  const open = await openPayoutTransfers(db, config.mode, config.chain);
  const held = (await createChainAdapter(config).balances(treasury.address)).token;
  const step = await inTransaction(db, async (tx): Promise<PayoutStep> => {
    await query(tx, "select pg_advisory_xact_lock(hashtext('usdt-payments:payouts:' || $1 || ':' || $2))", [
      config.mode,
      config.chain,
    ]);
    const payout = await lockPayout(tx, payoutId);
    if (payout?.status !== "pending" || payout.outboundId) return "nothing_to_do";
    if (sanctioned) {
      await transitionPayout(tx, payout, "denied", { failureCode: "sanctioned_destination" });
      return "blocked";
    }
    if (await isDenied(tx, payout.chain, payout.toAddress)) {
      await transitionPayout(tx, payout, "denied", { failureCode: "denied_destination" });
      return "blocked";
    }
    if (await reviewReason(tx, payout)) {
      await transitionPayout(tx, payout, "held_for_review");
      return "review_required";
    }
    const [queued] = await query<{ raw: string }>(tx, OWED_BY_TREASURY, [
      config.mode,
      config.chain,
      open.mined,
      open.unmined,
    ]);
    const raw = fromUsdtUnits(payout.amountUnits, config.decimals);
    if (held - BigInt(queued!.raw) < raw) return "waiting_for_liquidity";
    const transfer = await createOutbound(tx, {
      mode: config.mode,
      chain: config.chain,
      purpose: "payout",
      signer: { role: "treasury" },
      fromAddress: treasury.address,
      toAddress: payout.toAddress,
      asset: "token",
      rawAmount: raw,
      causeId: payout.id,
    });
    await execute(tx, "update payouts set outbound_id = $2, updated_at = now() where id = $1", [
      payout.id,
      transfer.id,
    ]);
    return "queued";
  }).catch((err: unknown) => {
    // PAYOUT_DENYLIST_FILE set but unreadable: nothing is decided (the transaction rolled back); it waits.
    if (!(err instanceof DenyListUnreadableError)) throw err;
    log.error("the deny-list file cannot be read: payouts wait", { payout: payoutId, error: err.message });
    return "deny_list_unreadable" as const;
  });
  if (step === "deny_list_unreadable") return retryLater(db, payoutId, "the deny-list file cannot be read");
  if (step === "waiting_for_liquidity") await waitForLiquidity(db, payoutId, config.mode, config.chain);
  return step;
}

/**
 * The open payout transfers, read before the treasury's balance, split by whether they were already mined
 * then. The balance (read at the head) has left every transfer mined before it, and only those, so what still
 * takes from it is every open transfer except those already mined before the read (and still mined), and any
 * transfer unmined before the read that has since confirmed. A transfer mined between the two reads is counted
 * twice: a short wait, never an overdraft.
 */
async function openPayoutTransfers(db: Db, mode: Mode, chain: Chain) {
  const rows = await query<{ id: string; status: string }>(
    db,
    `select id, status from outbound_transactions
      where mode = $1 and chain = $2 and purpose = 'payout' and status not in ('confirmed','reverted','expired')`,
    [mode, chain],
  );
  return {
    mined: rows.filter((r) => r.status === "mined").map((r) => r.id),
    unmined: rows.filter((r) => r.status !== "mined").map((r) => r.id),
  };
}

const OWED_BY_TREASURY = `
  select coalesce(sum(raw_amount), 0)::text as raw from (
    select raw_amount from outbound_transactions
     where mode = $1 and chain = $2 and purpose = 'payout' and status not in ('confirmed','reverted','expired')
       and not (status = 'mined' and id = any($3))
    union all
    select raw_amount from outbound_transactions where id = any($4) and status = 'confirmed'
  ) owed`;

async function waitForLiquidity(db: Db, payoutId: string, mode: Mode, chain: Chain): Promise<PayoutStep> {
  const [row] = await query<{ amount_units: string; waited_ms: string }>(
    db,
    "select amount_units::text, (extract(epoch from now() - created_at) * 1000)::bigint::text as waited_ms from payouts where id = $1",
    [payoutId],
  );
  await enqueueJob(
    db,
    "plan_sweeps",
    { mode, chain, need_units: row!.amount_units },
    {
      jobKey: `plan_sweeps:${mode}:${chain}:liquidity`,
    },
  );
  if (Number(row!.waited_ms) > appConfig().payoutLiquidityAlertMinutes * 60_000)
    log.error("payout waiting for treasury liquidity", {
      payout: payoutId,
      mode,
      chain,
      waited_ms: Number(row!.waited_ms),
    });
  return retryLater(db, payoutId, "the treasury does not hold enough yet");
}

async function retryLater(db: Db, payoutId: string, why: string): Promise<PayoutStep> {
  log.info("payout waits", { payout: payoutId, why });
  await enqueueJob(
    db,
    "execute_payout",
    { payout_id: payoutId },
    { jobKey: `execute_payout:${payoutId}`, runAt: new Date(Date.now() + RETRY_MS) },
  );
  return "waiting_for_liquidity";
}
