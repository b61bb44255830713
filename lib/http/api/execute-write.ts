import { inTransaction, type Db, type Statement } from "@/lib/platform/db/client";
import type { AuthContext } from "@/lib/identity/api-keys/authenticate-api-key";
import { DomainError } from "@/lib/kernel/domain-error";
import { type ApiError, toApiError } from "./errors";
import {
  claimIdempotencyKey,
  storeResponseStatement,
  type IdempotentRequest,
  type ResponseToStore,
  type StoredResponse,
} from "@/lib/platform/idempotency/idempotency-keys";

/** A 4xx the handler itself decided (e.g. insufficient balance): a real answer to the request. */
class HandlerRejection extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * A handler's answer. `sensitive`: the body holds a secret, stored only encrypted (see idempotency.ts).
 * `writes`: statements whose results the answer does not need, sent in order with the stored response and
 * the COMMIT (one round trip on the web's pipelining pool); if one fails, nothing is committed.
 */
export type WriteResult = { status?: number; body: unknown; sensitive?: boolean; writes?: Statement[] };

/** The stored form of a handler's 4xx, or null for anything else (a fault: nothing is stored for it). */
export function rejectionResponse(err: unknown, requestId: string): { status: number; bodyText: string } | null {
  const error = err instanceof HandlerRejection ? err.error : err;
  if (!(error instanceof DomainError)) return null;
  const answer = toApiError(error);
  if (answer.status >= 500) return null;
  return { status: answer.status, bodyText: JSON.stringify(answer.toBody(requestId)) };
}

/**
 * Runs a POST handler in one transaction with its idempotency record: the handler's writes, the jobs it
 * enqueues and the stored response commit together or not at all.
 * A 4xx from the handler rolls its writes back; with a key, that error is then stored in a transaction
 * of its own and replayed to retries. If a concurrent request with the key ran in between, everyone
 * gets that request's stored response instead: still exactly one execution per key.
 */
export async function executeWrite(
  db: Db,
  auth: AuthContext,
  idempotency: IdempotentRequest | null,
  requestId: string,
  run: (tx: Db) => Promise<WriteResult>,
): Promise<StoredResponse> {
  const stored = await executeClaimed(db, auth, idempotency, requestId, async (tx) => {
    const result = await run(tx);
    const response = { status: result.status ?? 200, bodyText: JSON.stringify(result.body) };
    return { ...response, replayed: false, writes: result.writes, store: { ...response, sensitive: result.sensitive } };
  });
  return stored!;
}

/** A handler's answer, and what goes out with the COMMIT: its last writes, then its key's stored response. */
type Answer = StoredResponse & { writes?: Statement[]; store?: ResponseToStore };

/**
 * The claim transaction both write shapes share: claims the key, runs `run` (which returns the response,
 * or null to leave the key claimed "in progress": see execute-phased-write.ts), stores what it returns to
 * store, commits. A response already stored for the key is returned instead; a 4xx from `run` rolls back
 * and becomes the stored answer.
 *
 * On a pipelining connection BEGIN goes out with the claim and the stored response with the COMMIT
 * (lib/platform/db/client.ts). The handler runs only once the claim is known: a key's request executes
 * once, and a replay writes nothing, not even what a rollback would undo (a sequence's number).
 */
export async function executeClaimed(
  db: Db,
  auth: AuthContext,
  idempotency: IdempotentRequest | null,
  requestId: string,
  run: (tx: Db) => Promise<Answer | null>,
): Promise<StoredResponse | null> {
  const runHandler = async (tx: Db) => {
    try {
      return await run(tx);
    } catch (err) {
      if (err instanceof DomainError && toApiError(err).status < 500) throw new HandlerRejection(toApiError(err));
      throw err;
    }
  };
  const withCommit = (answer: Answer | null): Statement[] => [
    ...(answer?.writes ?? []),
    ...(idempotency && answer?.store ? [storeResponseStatement(auth, idempotency.key, answer.store)] : []),
  ];
  try {
    const answer = await inTransaction(
      db,
      async (tx) => {
        if (idempotency) {
          const stored = await claimIdempotencyKey(tx, auth, idempotency);
          if (stored) return stored;
        }
        return runHandler(tx);
      },
      { last: withCommit },
    );
    return answer && { status: answer.status, bodyText: answer.bodyText, replayed: answer.replayed };
  } catch (err) {
    const response = rejectionResponse(err, requestId);
    if (!(err instanceof HandlerRejection) || !response) throw err;
    if (!idempotency) return { ...response, replayed: false };
    return inTransaction(
      db,
      async (tx) => (await claimIdempotencyKey(tx, auth, idempotency, response)) ?? { ...response, replayed: false },
    );
  }
}
