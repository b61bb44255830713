import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/**
 * docs/DASHBOARD.md#sign-in-limits: failures counted over a sliding 15 minutes, per client (an IPv4 address
 * or an IPv6 /64), so that nobody can lock someone else out:
 * - a client's wrong passwords for one account slow that client down on that account: past 5, each further
 *   attempt waits 30 s, doubling with every failure up to 15 minutes. Other clients are not affected, and
 *   only that client's own success on the account clears its count;
 * - a client with 20 failures, whatever the accounts, waits until the oldest leaves the window;
 * - wrong second-factor codes (at sign-in after the right password, or at step-up) count per account from
 *   every client: whoever makes them already has the password or a session, so 5 stop code entry for 15
 *   minutes. A passkey cannot be guessed: passkey sign-in and step-up are held only by the client limit.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
/** Wrong passwords for one account from one client before each attempt must wait. */
export const ACCOUNT_FAILURE_LIMIT = 5;
/** Failed sign-ins from one client, whatever the accounts, before it must wait. */
export const IP_FAILURE_LIMIT = 20;
/** Wrong second-factor codes for one account, from any client, before code entry must wait. */
export const CODE_FAILURE_LIMIT = 5;
/** The wait after the 5th wrong password from a client; it doubles with each further one (at most the window). */
export const FIRST_DELAY_MS = 30_000;

/** What an attempt tried: a password, a second-factor code, or a passkey. */
export type AttemptKind = "password" | "code" | "passkey";

/** Who tries: the account's email (lowercase) and the client key (lib/platform/client-ip.ts#ipLimitKey). */
export interface Attempter {
  email: string;
  clientKey: string;
}

/** The wait after `failures` wrong passwords from one client (0 below the limit). */
export function passwordDelayMs(failures: number): number {
  if (failures < ACCOUNT_FAILURE_LIMIT) return 0;
  return Math.min(SIGN_IN_WINDOW_MS, FIRST_DELAY_MS * 2 ** (failures - ACCOUNT_FAILURE_LIMIT));
}

/** What the limits read: the client's failures, its wrong passwords on the account, the account's wrong codes. */
export interface FailureCounts {
  /** The oldest of the client's last IP_FAILURE_LIMIT failures in the window, when it has that many. */
  clientOldest: Date | null;
  /** This client's wrong passwords for the account in the window, since its last success on it. */
  passwordFailures: number;
  passwordLatest: Date | null;
  /** Wrong codes for the account from every client in the window, since the account's last success. */
  codeFailures: number;
  /** The oldest of the last CODE_FAILURE_LIMIT of those, when there are that many. */
  codeOldest: Date | null;
}

export async function failureCounts(db: Db, who: Attempter, nowMs = Date.now()): Promise<FailureCounts> {
  const since = new Date(nowMs - SIGN_IN_WINDOW_MS);
  const [row] = await query<{
    client_oldest: Date | null;
    password_failures: number;
    password_latest: Date | null;
    code_failures: number;
    code_oldest: Date | null;
  }>(
    db,
    `with ok as (
       select greatest($3::timestamptz, max(created_at)) as account,
              greatest($3::timestamptz, max(created_at) filter (where client_key = $2)) as client
         from sign_in_attempts where email = $1 and succeeded),
     passwords as (
       select a.created_at from sign_in_attempts a, ok
        where a.email = $1 and a.client_key = $2 and a.kind = 'password' and not a.succeeded
          and a.created_at > coalesce(ok.client, $3::timestamptz)),
     codes as (
       select a.created_at from sign_in_attempts a, ok
        where a.email = $1 and a.kind = 'code' and not a.succeeded
        and a.created_at > coalesce(ok.account, $3::timestamptz))
     select
       (select min(created_at) from (
          select created_at from sign_in_attempts
           where client_key = $2 and not succeeded and created_at > $3::timestamptz
           order by created_at desc limit $4) c
         having count(*) >= $4) as client_oldest,
       (select count(*)::int from passwords) as password_failures,
       (select max(created_at) from passwords) as password_latest,
       (select count(*)::int from codes) as code_failures,
       (select min(created_at) from (select created_at from codes order by created_at desc limit $5) k
         having count(*) >= $5) as code_oldest`,
    [who.email, who.clientKey, since, IP_FAILURE_LIMIT, CODE_FAILURE_LIMIT],
  );
  return {
    clientOldest: row?.client_oldest ?? null,
    passwordFailures: row?.password_failures ?? 0,
    passwordLatest: row?.password_latest ?? null,
    codeFailures: row?.code_failures ?? 0,
    codeOldest: row?.code_oldest ?? null,
  };
}

/** Milliseconds until this client may next try these kinds on this account (0: now). */
export async function signInWaitMs(db: Db, who: Attempter, kinds: AttemptKind[], nowMs = Date.now()): Promise<number> {
  const counts = await failureCounts(db, who, nowMs);
  const ends: number[] = [];
  if (counts.clientOldest) ends.push(counts.clientOldest.getTime() + SIGN_IN_WINDOW_MS);
  if (kinds.includes("password") && counts.passwordLatest)
    ends.push(counts.passwordLatest.getTime() + passwordDelayMs(counts.passwordFailures));
  if (kinds.includes("code") && counts.codeOldest) ends.push(counts.codeOldest.getTime() + SIGN_IN_WINDOW_MS);
  return Math.max(0, ...ends.map((end) => end - nowMs));
}

/** How long sign-in attempts are kept (far past the limits' window: a record of who tried). */
export const SIGN_IN_ATTEMPTS_KEPT_DAYS = 30;

/** Deletes attempts older than the retention, at most `batch` per call. */
export async function pruneSignInAttempts(db: Db, batch = 1000): Promise<number> {
  const rows = await query<{ id: string }>(
    db,
    `delete from sign_in_attempts where id in (
       select id from sign_in_attempts where created_at < now() - ($1::int * interval '1 day') limit $2)
     returning id`,
    [SIGN_IN_ATTEMPTS_KEPT_DAYS, batch],
  );
  return rows.length;
}
