import { type Db, inTransaction } from "@/lib/platform/db/client";
import { log } from "@/lib/platform/log";
import type { CandidateRow, OutboundRow } from "./outbound-row";
import { rentFields } from "./progress-sent";
import type { OutboundEngine, TickContext } from "./outbound-engine";
import { closeOpenCandidates, setCandidate, transitionOutbound } from "./transition-outbound";

const sameHash = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * A landed intent: confirmed (or reverted) once its block is at the chain's confirmation depth; back to
 * broadcast, with the same bytes sent again, if a reorganization took its block away.
 */
export async function checkLanded(
  db: Db,
  engine: OutboundEngine,
  ctx: TickContext,
  intent: OutboundRow,
  own: CandidateRow[],
) {
  const landed = own.find((c) => c.status === "mined");
  if (!landed || landed.blockNumber === null) return;
  const block = (await engine.adapter.blocks([landed.blockNumber])).get(landed.blockNumber);
  const lookup = await engine.driver.lookup(landed);
  const stillThere =
    block &&
    sameHash(block.hash, landed.blockHash) &&
    lookup.state === "landed" &&
    sameHash(lookup.blockHash, landed.blockHash);
  if (!stillThere) {
    if (lookup.state === "landed") {
      // Re-mined in another block already: follow it there.
      await inTransaction(db, async (tx) => {
        await setCandidate(tx, landed, "moved", {
          blockNumber: lookup.blockNumber,
          blockHash: lookup.blockHash,
          feeNative: lookup.feeNative,
        });
        await transitionOutbound(tx, intent, null, {
          blockNumber: lookup.blockNumber,
          blockHash: lookup.blockHash,
          feeNative: lookup.feeNative,
          ...rentFields(lookup),
        });
      });
      return;
    }
    await inTransaction(db, async (tx) => {
      await setCandidate(tx, landed, "reorged", { blockNumber: null, blockHash: null, feeNative: null });
      await transitionOutbound(tx, intent, "reorged", {
        txHash: null,
        blockNumber: null,
        blockHash: null,
        confirmations: null,
        feeNative: null,
        rentPaidNative: null,
        rentReturnedNative: null,
      });
    });
    log.warn("outbound transaction reorganized out of its block; sending the same bytes again", {
      id: intent.id,
      tx: landed.txHash,
    });
    await engine.driver.broadcast(landed);
    return;
  }
  const confirmations = ctx.head - landed.blockNumber + 1;
  if (confirmations < engine.config.confirmations.required) {
    if (confirmations !== intent.confirmations) await transitionOutbound(db, intent, null, { confirmations });
    return;
  }
  const success = lookup.success;
  await inTransaction(db, async (tx) => {
    await setCandidate(tx, landed, success ? "confirmed" : "reverted");
    await closeOpenCandidates(tx, intent.id, "superseded", landed.id);
    await transitionOutbound(tx, intent, success ? "confirmed" : "reverted", {
      confirmations,
      confirmedAt: new Date(),
      feeUsage: lookup.state === "landed" ? (lookup.usage ?? null) : null,
      ...(success ? {} : { failure: "the transaction reverted on chain" }),
    });
  });
  log.info(`outbound transaction ${success ? "confirmed" : "reverted"}`, { id: intent.id, tx: landed.txHash });
}
