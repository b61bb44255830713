import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { repeatFilter } from "@/lib/platform/repeat-filter";
import { candidateRow, outboundRow, type CandidateRow, type OutboundRow } from "./outbound-row";
import { progressSent, sendCandidate } from "./progress-sent";
import { checkLanded } from "./check-landed";
import type { OutboundEngine, TickContext } from "./outbound-engine";

import { hooksOf } from "./outbound-hooks";
import { signCandidate } from "./sign-candidate";
import { transitionOutbound } from "./transition-outbound";
import { OUTBOUND_LIFECYCLE } from "./outbound-lifecycle";
import type { OutboundStatus } from "./outbound-types";

export type { OutboundEngine, TickContext } from "./outbound-engine";

const BATCH = 200;
const stepFailures = repeatFilter();

/**
 * One pass over the open intents of a (mode, chain), oldest first: sign what waits to be signed, send what
 * is signed, follow what was sent (replace, re-sign, or record it landed) and what landed (confirm, or back to
 * broadcast after a reorg). Every step starts from what the journal holds, so a pass after a crash picks up
 * where the last one stopped.
 */
export async function trackOutbound(db: Db, engine: OutboundEngine): Promise<number> {
  const { mode, chain } = engine.config;
  const intents = (
    await query(
      db,
      `select ${outboundRow.columns} from outbound_transactions
       where mode = $1 and chain = $2 and status not in ('confirmed','reverted','expired')
       order by created_at, id limit ${BATCH}`,
      [mode, chain],
    )
  ).map(outboundRow.map);
  if (!intents.length) return 0;
  const candidates = (
    await query(db, `select ${candidateRow.columns} from outbound_candidates where outbound_id = any($1) order by id`, [
      intents.map((i) => i.id),
    ])
  ).map(candidateRow.map);
  const head = await engine.adapter.head();
  const ctx: TickContext = { head, confirmedHead: head - engine.config.confirmations.required + 1 };
  for (const intent of intents) {
    const own = candidates.filter((c) => c.outboundId === intent.id);
    try {
      await step(db, engine, ctx, intent, own);
      stepFailures.clear(intent.id);
    } catch (err) {
      // A transfer waiting on something outside (the fee coin, an RPC) fails the same way every pass.
      const repeated = stepFailures.pass(intent.id, String(err));
      if (repeated !== null)
        log.warn("outbound step failed; retried on the next pass", {
          id: intent.id,
          error: String(err),
          ...(repeated ? { repeated_since_last_logged: repeated } : {}),
        });
    }
  }
  return intents.length;
}

async function step(db: Db, engine: OutboundEngine, ctx: TickContext, intent: OutboundRow, own: CandidateRow[]) {
  switch (intent.status) {
    case "intent":
      return signFirst(db, engine, ctx, intent);
    case "signed":
    case "broadcast":
      return progressSent(db, engine, ctx, intent, own);
    case "mined":
      return checkLanded(db, engine, ctx, intent, own);
    default:
      return;
  }
}

async function signFirst(db: Db, engine: OutboundEngine, ctx: TickContext, waiting: OutboundRow): Promise<void> {
  let intent = waiting;
  if (intent.after) {
    const [dep] = await query<{ status: string }>(db, "select status from outbound_transactions where id = $1", [
      intent.after,
    ]);
    if (dep?.status === "reverted" || dep?.status === "expired") {
      await inTransaction(db, (tx) =>
        transitionOutbound(tx, intent, "given_up", { failure: `${intent.after} ${dep.status}` }),
      );
      return;
    }
    if (dep?.status !== "confirmed") return;
  }
  if (intent.options.settledAfter) {
    const [dep] = await query<{ status: string }>(db, "select status from outbound_transactions where id = $1", [
      intent.options.settledAfter,
    ]);
    if (!dep || !OUTBOUND_LIFECYCLE.isTerminal(dep.status as OutboundStatus)) return;
  }
  // A batch still taking members is closed to them first, in a statement of its own: what is screened below
  // is what is signed.
  if (intent.options.appendable) {
    const [closed] = await query(
      db,
      `update outbound_transactions set options = options - 'appendable', updated_at = now()
        where id = $1 and status = 'intent' returning ${outboundRow.columns}`,
      [intent.id],
    );
    if (!closed) return;
    intent = outboundRow.map(closed);
  }
  // The transfer's domain screens it just before signing (a payout's destination against the chain's
  // sanctions oracle); no answer yet, the transfer waits for the next round.
  const hooks = hooksOf(intent.purpose);
  const screened = hooks.screen ? await hooks.screen(engine.config, intent) : undefined;
  if (screened === null) return;
  const keys = await engine.keysOf(intent);
  const signed = await signCandidate(db, engine.driver, keys, intent, "first", null, screened);
  // Sent as soon as its bytes are committed, as a replacement or a re-sign is: not a pass later, after every
  // other intent of this pass was signed (which held a burst of payouts back by seconds).
  if (signed) await sendCandidate(db, engine, ctx, { ...intent, status: "signed" }, signed);
}
