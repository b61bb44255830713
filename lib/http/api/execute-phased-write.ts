import { inTransaction, type Db } from "@/lib/platform/db/client";
import type { AuthContext } from "@/lib/identity/api-keys/authenticate-api-key";
import { log } from "@/lib/platform/log";
import { executeClaimed, rejectionResponse, type WriteResult } from "./execute-write";
import {
  releaseIdempotencyKey,
  storeIdempotentResponse,
  storeResponseStatement,
  type IdempotentRequest,
  type StoredResponse,
} from "@/lib/platform/idempotency/idempotency-keys";

/** A POST whose work includes network calls (webhook sends, chain calls), split around them. */
export interface WritePhases<Prepared, Sent> {
  /** In a short transaction with the key's claim: validate, read and write what the send needs. */
  prepare: (tx: Db) => Promise<Prepared>;
  /**
   * No transaction and no connection held: the network work. `db` is the pool, for short statements of
   * their own between network calls (e.g. recording each webhook attempt as it ends), never across one.
   */
  send: (db: Db, prepared: Prepared) => Promise<Sent>;
  /** In a second short transaction, with the stored response: record results, build the answer. */
  record: (tx: Db, prepared: Prepared, sent: Sent) => Promise<WriteResult>;
}

/**
 * Runs a POST as prepare → send → record (docs/API-DECISIONS.md#idempotency). The first transaction
 * commits the Idempotency-Key claim with no response ("in progress"), so a concurrent retry with the key
 * sees it and gets 409 idempotency_conflict instead of sending twice. The second stores the response with
 * the recorded results. A 4xx from any phase is the stored answer; a fault (5xx) releases the claim so a
 * retry runs again. A process that dies between the phases leaves the claim, which a retry takes over
 * after IN_PROGRESS_TTL_MINUTES (idempotency.ts).
 */
export async function executePhasedWrite<Prepared, Sent>(
  db: Db,
  auth: AuthContext,
  idempotency: IdempotentRequest | null,
  requestId: string,
  phases: WritePhases<Prepared, Sent>,
): Promise<StoredResponse> {
  let prepared!: Prepared;
  const answered = await executeClaimed(db, auth, idempotency, requestId, async (tx) => {
    prepared = await phases.prepare(tx);
    return null;
  });
  if (answered) return answered;
  try {
    const sent = await phases.send(db, prepared);
    const answer = await inTransaction(
      db,
      async (tx) => {
        const result = await phases.record(tx, prepared, sent);
        const response = { status: result.status ?? 200, bodyText: JSON.stringify(result.body) };
        return { response, sensitive: result.sensitive };
      },
      {
        last: ({ response, sensitive }) =>
          idempotency ? [storeResponseStatement(auth, idempotency.key, { ...response, sensitive })] : [],
      },
    );
    return { ...answer.response, replayed: false };
  } catch (err) {
    const response = rejectionResponse(err, requestId);
    if (response) {
      if (idempotency) await storeIdempotentResponse(db, auth, idempotency.key, response);
      return { ...response, replayed: false };
    }
    if (idempotency)
      await releaseIdempotencyKey(db, auth, idempotency.key).catch((releaseErr: unknown) =>
        log.warn("could not release an idempotency claim; it expires on its own", {
          request_id: requestId,
          error: String(releaseErr),
        }),
      );
    throw err;
  }
}
