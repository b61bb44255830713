import { inTransaction, type Db } from "@/lib/db/client";
import type { AuthContext } from "@/lib/keys/authenticate-api-key";
import { ApiError } from "./errors";
import {
  claimIdempotencyKey,
  storeIdempotentResponse,
  type IdempotentRequest,
  type StoredResponse,
} from "./idempotency";

/** A 4xx the handler itself decided (e.g. insufficient balance): a real answer to the request. */
class HandlerRejection extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** A handler's answer. `sensitive`: the body holds a secret, stored only encrypted (see idempotency.ts). */
export interface WriteResult {
  status?: number;
  body: unknown;
  sensitive?: boolean;
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
  try {
    return await inTransaction(db, async (tx) => {
      if (idempotency) {
        const stored = await claimIdempotencyKey(tx, auth, idempotency);
        if (stored) return stored;
      }
      let result: WriteResult;
      try {
        result = await run(tx);
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) throw new HandlerRejection(err);
        throw err;
      }
      const response = { status: result.status ?? 200, bodyText: JSON.stringify(result.body) };
      if (idempotency) {
        await storeIdempotentResponse(tx, auth, idempotency.key, { ...response, sensitive: result.sensitive });
      }
      return { ...response, replayed: false };
    });
  } catch (err) {
    if (!(err instanceof HandlerRejection)) throw err;
    const response = { status: err.error.status, bodyText: JSON.stringify(err.error.toBody(requestId)) };
    if (!idempotency) return { ...response, replayed: false };
    return inTransaction(
      db,
      async (tx) => (await claimIdempotencyKey(tx, auth, idempotency, response)) ?? { ...response, replayed: false },
    );
  }
}
