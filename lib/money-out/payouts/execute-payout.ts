import { chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { keyedRounds } from "@/lib/kernel/keyed-rounds";
import type { Mode } from "@/lib/kernel/mode";
import { config as appConfig } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { lockTreasuryQueue, readTreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import { DenyListUnreadableError } from "@/lib/money-out/destinations/deny-list";
import { type DestinationScreening, screenDestination } from "@/lib/money-out/destinations/screen-destination";
import { lastBatchReverted } from "./payout-batch";
import { type PayoutStep, payoutBatcherFor, takePayoutStep } from "./take-payout-step";

const RETRY_MS = 10_000;

/**
 * Takes a `pending` payout one step (job `execute_payout`, enqueued with it and on approval): blocked if its
 * destination is sanctioned, deny-listed or frozen by USDT's issuer (no fee is spent); held for review by the
 * merchant's policy; otherwise its transfer from the treasury is queued in the outbound journal (the engine signs
 * it, and the payout becomes `processing` then). If the treasury's USDT, less the payouts already queued, does not
 * cover it, it waits in `pending`, sweeps are asked for at once, and it tries again shortly; it never fails for
 * liquidity. Payouts of one (mode, chain) queue one at a time with the treasury's other transfers
 * (lib/money-out/outbound/treasury-queue.ts). With the `batch` strategy (EVM) it joins the chain's open
 * payout batch instead (payout-batch.ts), unless its last batch reverted: then it goes alone.
 *
 * The jobs of one (mode, chain) that run together in this process share a round: one read of the treasury,
 * their destinations screened side by side, one transaction under the treasury's lock. Each job still gets its
 * own payout's step, retry and failure.
 */
export async function executePayout(db: Db, payoutId: string): Promise<PayoutStep> {
  const [peek] = await query<{ mode: Mode; chain: Chain; status: string; outbound_id: string | null }>(
    db,
    "select mode, chain, status, outbound_id from payouts where id = $1",
    [payoutId],
  );
  if (peek?.status !== "pending" || peek.outbound_id) return "nothing_to_do";
  return roundsOf(db)(`${peek.mode}:${peek.chain}`, payoutId);
}

const roundsByDb = new WeakMap<Db, (key: string, payoutId: string) => Promise<PayoutStep>>();

function roundsOf(db: Db) {
  let rounds = roundsByDb.get(db);
  if (!rounds) {
    rounds = keyedRounds((key, ids: string[]) => {
      const [mode, chain] = key.split(":") as [Mode, Chain];
      return executePayoutRound(db, mode, chain, ids);
    });
    roundsByDb.set(db, rounds);
  }
  return rounds;
}

type Steps = Map<string, PromiseSettledResult<PayoutStep>>;
const done = (value: PayoutStep): PromiseSettledResult<PayoutStep> => ({ status: "fulfilled", value });

/**
 * One round: pending payouts of one (mode, chain) taken a step together, each with its own answer (its step, or
 * its error). A read that fails fails the round (every job retries); a payout whose step fails fails alone.
 */
export async function executePayoutRound(db: Db, mode: Mode, chain: Chain, ids: string[]): Promise<Steps> {
  const steps: Steps = new Map(ids.map((id) => [id, done("nothing_to_do")]));
  const config = await chainConfig(db, mode, chain);
  if (!config) {
    for (const id of ids) steps.set(id, done(await retryLater(db, id, "its chain is not running")));
    return steps;
  }
  const waiting = await query<{ id: string; to_address: string }>(
    db,
    "select id, to_address from payouts where id = any($1::text[]) and status = 'pending' and outbound_id is null order by id",
    [ids],
  );
  // Network reads before the transaction: the destinations screened (the sanctions oracle, USDT's issuer
  // freeze; unreadable, that payout waits), the treasury's liquidity, the batch contract.
  const screenings = await Promise.all(waiting.map((p) => screenDestination(config, p.id, p.to_address)));
  const screened = new Map<string, DestinationScreening>();
  for (const [i, p] of waiting.entries()) {
    const screening = screenings[i];
    if (screening) screened.set(p.id, screening);
    else steps.set(p.id, done(await retryLater(db, p.id, "its destination cannot be screened")));
  }
  if (!screened.size) return steps;
  const liquidity = await readTreasuryLiquidity(db, config);
  const batcher = await payoutBatcherFor(db, config);
  const alone = batcher ? await lastBatchReverted(db, [...screened.keys()]) : new Set<string>();
  const inOneTransaction = (some: string[]) =>
    inTransaction(db, async (tx) => {
      await lockTreasuryQueue(tx, config);
      const stepped: Steps = new Map();
      // In id order, as every transaction that locks several payouts does (no deadlock).
      for (const id of some)
        stepped.set(
          id,
          done(await takePayoutStep(tx, config, liquidity, id, screened.get(id)!, alone.has(id) ? null : batcher)),
        );
      return stepped;
    });
  const taken = await eachAtFault([...screened.keys()], inOneTransaction).catch((err: unknown) => {
    // PAYOUT_DENYLIST_FILE set but unreadable: nothing is decided (the transaction rolled back); they wait.
    if (!(err instanceof DenyListUnreadableError)) throw err;
    log.error("the deny-list file cannot be read: payouts wait", { mode, chain, error: err.message });
    return null;
  });
  for (const id of screened.keys()) {
    const step = taken?.get(id);
    if (!step) steps.set(id, done(await retryLater(db, id, "the deny-list file cannot be read")));
    else if (step.status === "fulfilled" && step.value === "waiting_for_liquidity")
      steps.set(id, done(await waitForLiquidity(db, id, mode, chain)));
    else steps.set(id, step);
  }
  return steps;
}

/**
 * Every payout's step in one transaction; if that fails, each in a transaction of its own, so one payout's fault
 * does not hold the others back (its job alone fails, and retries). An unreadable deny-list fails them all.
 */
async function eachAtFault(ids: string[], inOneTransaction: (some: string[]) => Promise<Steps>): Promise<Steps> {
  const attempt = (some: string[]) =>
    inOneTransaction(some).catch((err: unknown): Steps => {
      if (err instanceof DenyListUnreadableError || some.length > 1) throw err;
      return new Map([[some[0]!, { status: "rejected", reason: err }]]);
    });
  try {
    return await attempt(ids);
  } catch (err) {
    if (err instanceof DenyListUnreadableError) throw err;
    const steps: Steps = new Map();
    for (const id of ids) steps.set(id, (await attempt([id])).get(id)!);
    return steps;
  }
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
