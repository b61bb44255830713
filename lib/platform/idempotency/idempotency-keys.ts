// The idempotency records of /v1 writes (docs/API-DECISIONS.md#idempotency): claimed, stored and replayed in
// the request's transaction. The header itself is read at the edge (lib/http/api/idempotency-header.ts).
import type { Db, Statement } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";

/** Whose keys these are: a key is unique per merchant and mode (an API key's AuthContext is one). */
export interface KeyOwner {
  merchantId: string;
  mode: Mode;
}

export const IDEMPOTENCY_TTL_HOURS = 24;
/**
 * A key claimed by a request that does network work between two transactions (execute-phased-write.ts)
 * is "in progress" (no response yet) while it runs. If the process dies in between, the claim is taken
 * over after this long: far above the longest such request (10 s webhook sends, a sandbox transfer's
 * receipt waits), so a request still running is never executed twice.
 */
export const IN_PROGRESS_TTL_MINUTES = 10;

export interface IdempotentRequest {
  key: string;
  method: string;
  path: string;
  hash: string;
}

/**
 * A response to store. `sensitive`: the body holds a secret shown once (a webhook signing secret), so it is
 * stored encrypted and decrypted only to replay it.
 */
export interface ResponseToStore {
  status: number;
  bodyText: string;
  sensitive?: boolean;
}

export interface StoredResponse {
  status: number;
  bodyText: string;
  replayed: boolean;
}

// Insert the claim; a record past its lifetime (or an in-progress claim left by a crashed request) is taken
// over as if absent, in the same statement.
const CLAIM = `
insert into idempotency_keys as k (merchant_id, mode, key, request_hash, method, path, response_status, response_body)
values ($1, $2, $3, $4, $5, $6, $7, $8)
on conflict (merchant_id, mode, key) do update
  set request_hash = excluded.request_hash, method = excluded.method, path = excluded.path,
      response_status = excluded.response_status, response_body = excluded.response_body, created_at = now()
  where k.created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
     or (k.response_status is null and k.created_at < now() - make_interval(mins => ${IN_PROGRESS_TTL_MINUTES}))
returning key`;

interface StoredRow {
  request_hash: string;
  method: string;
  path: string;
  response_status: number | null;
  response_body: string | null;
}

/**
 * Claims (merchant, mode, key) for this request inside transaction `tx`, or returns the response already
 * stored for it. The claim is a row insert: a concurrent request with the same key blocks on it until
 * `tx` ends, then sees the committed row and replays it (or claims the key itself if `tx` rolled back).
 * `response` is given when the claim also records the final answer (a handler's 4xx, see execute-write).
 */
export async function claimIdempotencyKey(
  tx: Db,
  auth: KeyOwner,
  req: IdempotentRequest,
  response?: { status: number; bodyText: string },
): Promise<StoredResponse | null> {
  const claimed = await query(tx, CLAIM, [
    auth.merchantId,
    auth.mode,
    req.key,
    req.hash,
    req.method,
    req.path,
    response?.status ?? null,
    response?.bodyText ?? null,
  ]);
  if (claimed.length > 0) return null;

  const [existing] = await query<StoredRow>(
    tx,
    `select request_hash, method, path, response_status, response_body from idempotency_keys
     where merchant_id = $1 and mode = $2 and key = $3`,
    [auth.merchantId, auth.mode, req.key],
  );
  if (!existing || existing.response_status === null || existing.response_body === null) {
    throw new DomainError(
      "idempotency_conflict",
      "Another request with this Idempotency-Key is still being processed; retry shortly.",
      { param: "Idempotency-Key" },
    );
  }
  if (existing.request_hash !== req.hash) {
    throw new DomainError(
      "idempotency_conflict",
      `Idempotency-Key '${req.key}' was already used with different ` +
        `parameters (${existing.method} ${existing.path}). ` +
        "Use a new key for a new request.",
      { param: "Idempotency-Key" },
    );
  }
  return {
    status: existing.response_status,
    bodyText: openBody(auth, req.key, existing.response_body),
    replayed: true,
  };
}

/** Stores the response of the request that claimed the key (same transaction as its writes). */
export async function storeIdempotentResponse(
  tx: Db,
  auth: KeyOwner,
  key: string,
  response: ResponseToStore,
): Promise<void> {
  const { text, values } = storeResponseStatement(auth, key, response);
  await execute(tx, text, values);
}

/** The statement that stores the response: sent by the transaction with its COMMIT (inTransaction's `last`). */
export function storeResponseStatement(auth: KeyOwner, key: string, response: ResponseToStore): Statement {
  const body = response.sensitive
    ? encryptSecret(masterKey(), Buffer.from(response.bodyText), bodyPurpose(auth, key))
    : response.bodyText;
  return {
    text:
      "update idempotency_keys set response_status = $4, response_body = $5 " +
      "where merchant_id = $1 and mode = $2 and key = $3",
    values: [auth.merchantId, auth.mode, key, response.status, body],
  };
}

// Bound to the record, so a sealed body copied to another merchant's or key's record does not decrypt.
const bodyPurpose = (auth: KeyOwner, key: string) => `idempotent-response:${auth.merchantId}:${auth.mode}:${key}`;

/** A stored body as sent: JSON text never starts with "v1.", a sealed body always does. */
function openBody(auth: KeyOwner, key: string, stored: string): string {
  if (!stored.startsWith("v1.")) return stored;
  return decryptSecret(masterKey(), stored, bodyPurpose(auth, key)).toString("utf8");
}

/** Gives up an in-progress claim whose request failed (a fault, nothing stored), so a retry runs it again. */
export async function releaseIdempotencyKey(db: Db, auth: KeyOwner, key: string): Promise<void> {
  await execute(
    db,
    "delete from idempotency_keys where merchant_id = $1 and mode = $2 and key = $3 and response_status is null",
    [auth.merchantId, auth.mode, key],
  );
}

/** Periodic sweep: deletes records older than the lifetime, in bounded batches. */
export async function expireIdempotencyKeys(db: Db, batch = 5000): Promise<number> {
  return execute(
    db,
    `delete from idempotency_keys where ctid in (
       select ctid from idempotency_keys
       where created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS}) limit $1)`,
    [batch],
  );
}
