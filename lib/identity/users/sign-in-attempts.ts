import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/platform/db/client";
import { execute, query } from "@/lib/platform/db/query";
import { enqueueJob } from "@/lib/platform/jobs/enqueue-job";
import { mailConfigured } from "@/lib/platform/mail/send-mail";
import { recordAudit } from "./audit";
import {
  ACCOUNT_FAILURE_LIMIT,
  type Attempter,
  type AttemptKind,
  CODE_FAILURE_LIMIT,
  failureCounts,
} from "./sign-in-limits";

/** At most one email a user an hour about failed sign-ins, however many clients try. */
const NOTICE_EVERY_MS = 3_600_000;

/**
 * Serializes the attempts on one account, then those of one client (call in the tx, before the limits are
 * read), so parallel guesses cannot slip past either count: not 20 wrong passwords at once on an account, nor
 * 40 at once over 40 accounts from one client. Always the account first and the client last (nothing is locked
 * after it), so two attempts never wait for each other crosswise. Held until the transaction ends.
 */
export async function lockAttempts(tx: Db, who: Attempter): Promise<void> {
  await execute(tx, "select pg_advisory_xact_lock(hashtext('sign_in:' || $1))", [who.email]);
  await lockClientAttempts(tx, who.clientKey);
}

/**
 * Serializes one client's attempts (passkey sign-in takes only this one: a passkey is not guessed per
 * account). Its key is in the two-key space of advisory locks, apart from the accounts' one-key space, so a
 * hash collision between an account and a client can never make two attempts wait on each other in a cycle.
 */
export async function lockClientAttempts(tx: Db, clientKey: string): Promise<void> {
  await execute(tx, "select pg_advisory_xact_lock(hashtext('sign_in_client'), hashtext($1))", [clientKey]);
}

/**
 * Records one attempt; failures count toward the limits (sign-in-limits.ts), a success resets the account's.
 * The failure that reaches a limit is audited for the account's merchant (and emailed to the user when SMTP
 * is set, at most hourly), so the owner sees someone guessing.
 */
export async function recordSignInAttempt(
  db: Db,
  who: Attempter & { ip: string },
  kind: AttemptKind,
  succeeded: boolean,
): Promise<void> {
  await execute(
    db,
    "insert into sign_in_attempts (id, email, ip, client_key, kind, succeeded) values ($1, $2, $3, $4, $5, $6)",
    [`sia_${randomUUID()}`, who.email, who.ip, who.clientKey, kind, succeeded],
  );
  if (succeeded || kind === "passkey") return;
  const counts = await failureCounts(db, who);
  const failures = kind === "code" ? counts.codeFailures : counts.passwordFailures;
  if (failures === (kind === "code" ? CODE_FAILURE_LIMIT : ACCOUNT_FAILURE_LIMIT))
    await noticeRepeatedFailures(db, who, kind, failures);
}

async function noticeRepeatedFailures(db: Db, who: Attempter & { ip: string }, kind: AttemptKind, failures: number) {
  const [user] = await query<{ id: string; merchant_id: string; noticed: boolean }>(
    db,
    `select u.id, u.merchant_id, exists (
        select 1 from audit_log a where a.target = u.id and a.action = 'user.sign_in_failures'
           and (a.details->>'emailed')::boolean and a.created_at > now() - $2 * interval '1 millisecond') as noticed
       from users u where lower(u.email) = $1`,
    [who.email, NOTICE_EVERY_MS],
  );
  if (!user) return; // an unknown email: only the client limit applies, and no one to tell
  const emailed = mailConfigured() && !user.noticed;
  await recordAudit(
    db,
    { merchantId: user.merchant_id, userId: null, ip: who.ip, userAgent: null },
    { action: "user.sign_in_failures", target: user.id, details: { kind, failures, client: who.clientKey, emailed } },
  );
  if (emailed)
    await enqueueJob(db, "notify_sign_in_failures", {
      user_id: user.id,
      kind,
      failures,
      client: who.clientKey,
      at: new Date().toISOString(),
    });
}
