import { createChainAdapter } from "@/lib/chains/adapters/create-adapter";
import { fromUsdtUnits } from "@/lib/chains/adapters/types";
import { chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import type { Mode } from "@/lib/modes/mode";
import { config as appConfig } from "@/lib/config/env";
import { type Db, inTransaction } from "@/lib/db/client";
import { execute, query } from "@/lib/db/query";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { createOutbound } from "@/lib/outbound/create-outbound";
import { roleAddress } from "@/lib/wallets/role-address";
import { isDenied } from "./deny-list";
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
  // the treasury's balance (later queued payouts are subtracted inside it).
  const sanctioned = await sanctionedOrUnknown(config, payoutId, peek.to_address);
  if (sanctioned === null) return retryLater(db, payoutId, "the sanctions oracle cannot be read");
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
    const [queued] = await query<{ raw: string }>(
      tx,
      `select coalesce(sum(raw_amount), 0)::text as raw from outbound_transactions
       where mode = $1 and chain = $2 and purpose = 'payout' and status not in ('confirmed','reverted','expired')`,
      [config.mode, config.chain],
    );
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
  });
  if (step === "waiting_for_liquidity") await waitForLiquidity(db, payoutId, config.mode, config.chain);
  return step;
}

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
