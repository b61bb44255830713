import { inTransaction, type Db } from "@/lib/platform/db/client";
import { newId } from "@/lib/kernel/random";
import { execute, query } from "@/lib/platform/db/query";
import { type Actor, recordAudit } from "./audit";
import type { Role } from "./roles";

/** A session not used for this long is over (the JWT cookie's own expiry is the same; this row is the truth). */
export const SESSION_IDLE_MS = 30 * 60_000;
/** last_seen_at is written at most this often per session (every page load would be a write otherwise). */
const TOUCH_EVERY_MS = 60_000;

export interface SessionUser {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: Role;
  sessionId: string;
  /** When this session last proved a second factor (sign-in or step-up); null if never. */
  secondFactorAt: Date | null;
}

export interface SessionClaims {
  uid: string;
  sv: number;
  sid: string;
}

/** Opens a session row for a successful sign-in; call it in the sign-in's transaction. */
export async function openSession(
  db: Db,
  input: { userId: string; ip: string | null; userAgent: string | null; secondFactor: boolean },
): Promise<string> {
  const id = newId("ses_");
  await execute(
    db,
    `insert into user_sessions (id, user_id, ip, user_agent, second_factor_at)
     values ($1, $2, $3, $4, case when $5 then now() end)`,
    [id, input.userId, input.ip, input.userAgent?.slice(0, 512) ?? null, input.secondFactor],
  );
  return id;
}

/**
 * The user a session belongs to, read fresh on every request: null when the user is gone, the session row
 * is ended or idle too long, or the session's version is older than the user's. Role changes apply at once.
 */
export async function loadSessionUser(db: Db, claims: SessionClaims): Promise<SessionUser | null> {
  const [row] = await query<{
    id: string;
    merchant_id: string;
    merchant_name: string;
    email: string;
    role: Role;
    session_version: number;
    second_factor_at: Date | null;
    seen_ms_ago: number;
  }>(
    db,
    `select u.id, u.merchant_id, m.name as merchant_name, u.email, u.role, u.session_version, s.second_factor_at,
            (extract(epoch from now() - s.last_seen_at) * 1000)::float8 as seen_ms_ago
       from user_sessions s
       join users u on u.id = s.user_id
       join merchants m on m.id = u.merchant_id
      where s.id = $1 and s.user_id = $2 and s.ended_at is null`,
    [claims.sid, claims.uid],
  );
  if (!row || row.session_version !== claims.sv || row.seen_ms_ago > SESSION_IDLE_MS) return null;
  if (row.seen_ms_ago > TOUCH_EVERY_MS)
    await execute(db, "update user_sessions set last_seen_at = now() where id = $1", [claims.sid]);
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    email: row.email,
    role: row.role,
    sessionId: claims.sid,
    secondFactorAt: row.second_factor_at,
  };
}

/** Records that this session just proved a second factor (step-up). */
export async function markSecondFactor(db: Db, sessionId: string): Promise<void> {
  await execute(db, "update user_sessions set second_factor_at = now() where id = $1 and ended_at is null", [
    sessionId,
  ]);
}

export interface SessionRow {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The user's open sessions, most recently used first. */
export async function listOpenSessions(db: Db, userId: string): Promise<SessionRow[]> {
  const rows = await query<{
    id: string;
    ip: string | null;
    user_agent: string | null;
    created_at: Date;
    last_seen_at: Date;
  }>(
    db,
    `select id, ip, user_agent, created_at, last_seen_at from user_sessions
      where user_id = $1 and ended_at is null and last_seen_at > now() - make_interval(secs => $2::float8 / 1000)
      order by last_seen_at desc`,
    [userId, SESSION_IDLE_MS],
  );
  return rows.map((r) => ({
    id: r.id,
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
  }));
}

/** Ends one of the actor's own sessions (this browser's sign-out, or one listed under Security), audited. */
export async function endSession(db: Db, actor: Actor & { userId: string }, sessionId: string): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const ended = await query(
      tx,
      "update user_sessions set ended_at = now() where id = $1 and user_id = $2 and ended_at is null returning id",
      [sessionId, actor.userId],
    );
    if (ended.length > 0) await recordAudit(tx, actor, { action: "user.session_ended", target: sessionId });
    return ended.length > 0;
  });
}

/** Signs the user out of every session (rows ended, version raised for any cookie in flight), audited. */
export async function signOutEverywhere(db: Db, actor: Actor & { userId: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    await execute(tx, "update users set session_version = session_version + 1 where id = $1", [actor.userId]);
    await execute(tx, "update user_sessions set ended_at = now() where user_id = $1 and ended_at is null", [
      actor.userId,
    ]);
    await recordAudit(tx, actor, { action: "user.signed_out_everywhere", target: actor.userId });
  });
}

/** Session rows ended or idle this long ago are deleted (long past any use; the audit log keeps the record). */
export const ENDED_SESSIONS_KEPT_DAYS = 30;

/** Deletes at most `batch` long-finished session rows; returns how many. */
export async function pruneSessions(db: Db, batch = 1000): Promise<number> {
  const rows = await query<{ id: string }>(
    db,
    `delete from user_sessions where id in (
       select id from user_sessions
        where coalesce(ended_at, last_seen_at) < now() - ($1::int * interval '1 day') limit $2)
     returning id`,
    [ENDED_SESSIONS_KEPT_DAYS, batch],
  );
  return rows.length;
}
