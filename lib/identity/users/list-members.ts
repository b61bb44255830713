import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { Role } from "./roles";

export interface Member {
  id: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** The latest successful sign-in (from sign_in_attempts, kept 30 days); null if none is known. */
  lastSignInAt: string | null;
  /** The working API keys they created or rolled into (a member who leaves takes them along: revoked). */
  keys: MemberKey[];
}

export interface MemberKey {
  id: string;
  mode: "sandbox" | "live";
  /** How the keys page shows it: its prefix and last four characters. */
  label: string;
}

/** A merchant's team, owners first, then by when they joined. */
export async function listMembers(db: Db, merchantId: string): Promise<Member[]> {
  const rows = await query<{
    id: string;
    email: string;
    role: Role;
    created_at: Date;
    last_sign_in: Date | null;
    keys: MemberKey[];
  }>(
    db,
    `select u.id, u.email, u.role, u.created_at,
            (select max(a.created_at) from sign_in_attempts a where a.email = lower(u.email)
              and a.succeeded) as last_sign_in,
            coalesce((select json_agg(json_build_object('id', k.id, 'mode', k.mode,
                                        'label', k.display_prefix || '…' || k.last4) order by k.created_at, k.id)
                        from api_keys k
                       where k.merchant_id = u.merchant_id and k.created_by_user_id = u.id
                         and (k.revoked_at is null or k.revoked_at > now())), '[]') as keys
       from users u where u.merchant_id = $1
      order by (u.role = 'owner') desc, u.created_at, u.id`,
    [merchantId],
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    joinedAt: r.created_at.toISOString(),
    lastSignInAt: r.last_sign_in?.toISOString() ?? null,
    keys: r.keys,
  }));
}

/** How many members of the merchant hold one of these roles. */
export async function countMembersWithRoles(db: Db, merchantId: string, roles: readonly Role[]): Promise<number> {
  const [row] = await query<{ n: number }>(
    db,
    "select count(*)::int as n from users where merchant_id = $1 and role = any($2::text[])",
    [merchantId, roles],
  );
  return row?.n ?? 0;
}
