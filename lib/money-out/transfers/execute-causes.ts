import { type ChainConfig, chainConfig } from "@/lib/chains/chain-config";
import type { Chain } from "@/lib/chains/chains";
import { keyedRounds } from "@/lib/kernel/keyed-rounds";
import type { Mode } from "@/lib/kernel/mode";
import { DenyListUnreadableError } from "@/lib/money-out/destinations/deny-list";
import {
  type DestinationScreening,
  screenDestination,
  UNSCREENED,
} from "@/lib/money-out/destinations/screen-destination";
import { lockTreasuryQueue, readTreasuryLiquidity } from "@/lib/money-out/outbound/treasury-queue";
import { config as appConfig } from "@/lib/platform/config/env";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { log } from "@/lib/platform/log";
import { prepareBatchRound } from "./payout-batch";
import { type CauseExecution, type CauseStep, takeCauseStep } from "./take-cause-step";
import type { CauseRow } from "./transfer-kind";

const RETRY_MS = 10_000;

type Steps = Map<string, PromiseSettledResult<CauseStep>>;
const done = (value: CauseStep): PromiseSettledResult<CauseStep> => ({ status: "fulfilled", value });

/**
 * Takes a `pending` cause one step (its kind's execution job): denied when its destination is sanctioned,
 * deny-listed or frozen by USDT's issuer (no fee is spent); held when its kind says so; otherwise its transfer
 * from the treasury is queued in the outbound journal, in the treasury's queue (treasury-queue.ts). Short of
 * liquidity it waits in `pending`, sweeps are asked for at once, and it tries again shortly; it never fails for
 * liquidity. The jobs of one kind and (mode, chain) that run together in this process share a round: one read
 * of the treasury, their destinations screened side by side, one transaction under the treasury's lock; each
 * job still gets its own step, retry and failure.
 */
export function causeExecutor<Row extends CauseRow>(
  execution: CauseExecution<Row>,
): {
  execute(db: Db, id: string): Promise<CauseStep>;
  round(db: Db, mode: Mode, chain: Chain, ids: string[]): Promise<Steps>;
} {
  const { kind } = execution;
  const roundsByDb = new WeakMap<Db, (key: string, id: string) => Promise<CauseStep>>();
  const retryLater = async (db: Db, id: string, why: string): Promise<CauseStep> => {
    log.info(`${kind.purpose} waits`, { [kind.purpose]: id, why });
    await execution.enqueue(db, id, new Date(Date.now() + RETRY_MS));
    return "waiting";
  };

  async function round(db: Db, mode: Mode, chain: Chain, ids: string[]): Promise<Steps> {
    const steps: Steps = new Map(ids.map((id) => [id, done("nothing_to_do")]));
    const config = await chainConfig(db, mode, chain);
    if (!config) {
      for (const id of ids) steps.set(id, done(await retryLater(db, id, "its chain is not running")));
      return steps;
    }
    const waiting = await query<{ id: string; to_address: string | null }>(
      db,
      `select id, to_address from ${kind.table} where id = any($1::text[]) and status = 'pending'
         and outbound_id is null order by id`,
      [ids],
    );
    // Network reads before the transaction: the destinations screened (the sanctions oracle, USDT's issuer
    // freeze; unreadable, that cause waits), the treasury's liquidity, the batch contract when the kind batches there.
    const screenings = await Promise.all(
      waiting.map((c) => (c.to_address ? screenDestination(config, c.id, c.to_address) : UNSCREENED)),
    );
    const screened = new Map<string, DestinationScreening>();
    for (const [i, c] of waiting.entries()) {
      const screening = screenings[i];
      if (screening) screened.set(c.id, screening);
      else steps.set(c.id, done(await retryLater(db, c.id, "its destination cannot be screened")));
    }
    if (!screened.size) return steps;
    const liquidity = await readTreasuryLiquidity(db, config);
    const batch = execution.batched?.(config) ? await prepareBatchRound(db, config, [...screened.keys()]) : null;
    const inOneTransaction = (some: string[]) =>
      inTransaction(db, async (tx) => {
        await lockTreasuryQueue(tx, config);
        const stepped: Steps = new Map();
        // In id order, as every transaction that locks several causes does (no deadlock).
        for (const id of some)
          stepped.set(id, done(await takeCauseStep(tx, execution, config, liquidity, id, screened.get(id)!, batch)));
        return stepped;
      });
    const taken = await eachAtFault([...screened.keys()], inOneTransaction).catch((err: unknown) => {
      // The deny-list file set but unreadable: nothing is decided (the transaction rolled back); they wait.
      if (!(err instanceof DenyListUnreadableError)) throw err;
      log.error(`the deny-list file cannot be read: ${kind.table} wait`, { mode, chain, error: err.message });
      return null;
    });
    for (const id of screened.keys()) {
      const step = taken?.get(id);
      if (!step) steps.set(id, done(await retryLater(db, id, "the deny-list file cannot be read")));
      else if (step.status === "fulfilled" && step.value === "waiting")
        steps.set(id, done(await waitForLiquidity(db, config, id)));
      else steps.set(id, step);
    }
    return steps;
  }

  async function waitForLiquidity(db: Db, config: ChainConfig, id: string): Promise<CauseStep> {
    const [row] = await query<{ amount_units: string; waited_ms: string }>(
      db,
      `select amount_units::text, (extract(epoch from now() - created_at) * 1000)::bigint::text as waited_ms
         from ${kind.table} where id = $1`,
      [id],
    );
    const { mode, chain } = config;
    await enqueueJob(
      db,
      "plan_sweeps",
      { mode, chain, need_units: row!.amount_units },
      { jobKey: `plan_sweeps:${mode}:${chain}:liquidity` },
    );
    const waited = Number(row!.waited_ms);
    if (waited > appConfig().payoutLiquidityAlertMinutes * 60_000)
      log.error(`${kind.purpose} waiting for treasury liquidity`, {
        [kind.purpose]: id,
        mode,
        chain,
        waited_ms: waited,
      });
    return retryLater(db, id, "the treasury does not hold enough yet");
  }

  return {
    round,
    async execute(db, id) {
      const [peek] = await query<{ mode: Mode; chain: Chain; status: string; outbound_id: string | null }>(
        db,
        `select mode, chain, status, outbound_id from ${kind.table} where id = $1`,
        [id],
      );
      if (peek?.status !== "pending" || peek.outbound_id) return "nothing_to_do";
      let rounds = roundsByDb.get(db);
      if (!rounds) {
        rounds = keyedRounds((key, some: string[]) => {
          const [mode, chain] = key.split(":") as [Mode, Chain];
          return round(db, mode, chain, some);
        });
        roundsByDb.set(db, rounds);
      }
      return rounds(`${peek.mode}:${peek.chain}`, id);
    },
  };
}

/**
 * Every cause's step in one transaction; if that fails, each in a transaction of its own, so one cause's fault
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
