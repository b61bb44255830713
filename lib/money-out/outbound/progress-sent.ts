import { type Db, inTransaction } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { crashPoint } from "./crash-points";
import type { Lookup } from "../../chains/outbound-driver";
import type { CandidateRow, OutboundRow } from "./outbound-row";
import { signCandidate } from "./sign-candidate";
import type { OutboundEngine, TickContext } from "./outbound-engine";
import { closeOpenCandidates, setCandidate, transitionOutbound } from "./transition-outbound";

type Landed = Extract<Lookup, { state: "landed" }>;

/** The rent a landed candidate moved (Solana), recorded on its intent with its fee for the custody books. */
export const rentFields = (at: Landed) => ({
  rentPaidNative: at.rent?.paid ?? null,
  rentReturnedNative: at.rent?.returned ?? null,
});

/**
 * Broadcasts a stored candidate (again: the same bytes are always safe to send) and records that a node has
 * it. Returns the intent as it now is.
 */
export async function sendCandidate(
  db: Db,
  engine: OutboundEngine,
  ctx: TickContext,
  intent: OutboundRow,
  candidate: CandidateRow,
): Promise<OutboundRow> {
  const outcome = await engine.driver.broadcast(candidate);
  if (!outcome.sent) {
    // Refused (e.g. its max fee is below the base fee: some nodes refuse rather than queue it). The first
    // refusal starts the replacement clock, as a broadcast would.
    if (candidate.broadcastHead === null) {
      await execute(
        db,
        "update outbound_candidates set broadcast_head = $2, updated_at = now() " +
          "where id = $1 and broadcast_head is null",
        [candidate.id, ctx.head],
      );
      log.warn("outbound broadcast refused; offered again on the next passes", {
        id: intent.id,
        tx: candidate.txHash,
        reason: outcome.reason,
      });
    }
    return intent;
  }
  crashPoint("after_broadcast", intent);
  await inTransaction(db, async (tx) => {
    if (candidate.status === "signed") await setCandidate(tx, candidate, "sent", { broadcastHead: ctx.head });
    if (intent.status === "signed") await transitionOutbound(tx, intent, "sent");
  });
  return intent.status === "signed" ? { ...intent, status: "broadcast" } : intent;
}

export async function recordLanded(db: Db, ctx: TickContext, intent: OutboundRow, candidate: CandidateRow, at: Landed) {
  await inTransaction(db, async (tx) => {
    await setCandidate(tx, candidate, "landed", {
      blockNumber: at.blockNumber,
      blockHash: at.blockHash,
      feeNative: at.feeNative,
    });
    await transitionOutbound(tx, intent, "landed", {
      txHash: candidate.txHash,
      blockNumber: at.blockNumber,
      blockHash: at.blockHash,
      feeNative: at.feeNative,
      ...rentFields(at),
      confirmations: Math.max(0, ctx.head - at.blockNumber + 1),
    });
  });
}

/**
 * An intent whose candidates are signed or sent: record one that landed; otherwise send what no node has,
 * re-sign once every candidate provably cannot land, and replace one waiting too long with higher fees.
 */
export async function progressSent(
  db: Db,
  engine: OutboundEngine,
  ctx: TickContext,
  start: OutboundRow,
  own: CandidateRow[],
) {
  let intent = start;
  const live = own.filter((c) => c.status === "signed" || c.status === "broadcast");
  if (!live.length) return;
  const lookups = await Promise.all(live.map((c) => engine.driver.lookup(c)));
  const landed = lookups.findIndex((l) => l.state === "landed");
  if (landed >= 0) return recordLanded(db, ctx, intent, live[landed]!, lookups[landed] as Landed);

  // Only the newest candidate is (re)sent: it supersedes the others, which may still land (and are tracked).
  const newest = live[live.length - 1]!;
  if (newest.status === "signed" || lookups[live.length - 1]!.state === "unknown")
    intent = await sendCandidate(db, engine, ctx, intent, newest);

  // A candidate a node still holds may land: only when none is held is it worth proving they cannot.
  const held = lookups.some((l) => l.state === "pending");
  const lost = held
    ? [false]
    : await Promise.all(live.map((c) => engine.driver.cannotLand(intent, c, ctx.confirmedHead)));
  if (lost.every(Boolean)) {
    // Look once more: a candidate that landed since the first look must not be signed over.
    const again = await Promise.all(live.map((c) => engine.driver.lookup(c)));
    const late = again.findIndex((l) => l.state === "landed");
    if (late >= 0) return recordLanded(db, ctx, intent, live[late]!, again[late] as Landed);
    if (intent.resigns >= engine.maxResigns) {
      await inTransaction(db, async (tx) => {
        await closeOpenCandidates(tx, intent.id, "expired");
        await transitionOutbound(tx, intent, "given_up", { failure: `expired after ${intent.resigns} re-signs` });
      });
      log.error("outbound transaction given up as expired", { id: intent.id, resigns: intent.resigns });
      return;
    }
    const resigned = await signCandidate(db, engine.driver, await engine.keysOf(intent), intent, "resign", newest);
    if (resigned)
      await sendCandidate(db, engine, ctx, { ...intent, status: "signed", resigns: intent.resigns + 1 }, resigned);
    return;
  }

  // Not mined within the allowed blocks since it was first offered (accepted or refused): replace it.
  const waited = newest.broadcastHead === null ? 0 : ctx.head - newest.broadcastHead;
  if (engine.driver.usesNonces && waited >= engine.replaceAfterBlocks) {
    const bumped = await signCandidate(db, engine.driver, await engine.keysOf(intent), intent, "bump", newest);
    if (bumped) {
      log.info("outbound transaction replaced with higher fees", {
        id: intent.id,
        previous: newest.txHash,
        tx: bumped.txHash,
      });
      await sendCandidate(db, engine, ctx, intent, bumped);
    }
  }
}
