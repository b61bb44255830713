import fs from "node:fs";
import { addressKey } from "@/lib/chains/address-key";
import { CHAINS, type Chain } from "@/lib/chains/chains";
import { config } from "@/lib/platform/config/env";
import { newId } from "@/lib/kernel/random";
import type { Db } from "@/lib/platform/db/client";
import type { DestinationScreening } from "./screen-destination";
import { query } from "@/lib/platform/db/query";

interface FileEntry {
  chain: Chain | null;
  address: string;
}

let fileCache: { path: string; version: string; entries: FileEntry[] } | undefined;

/** PAYOUT_DENYLIST_FILE is set but cannot be read or parsed: no payout is signed until it can (fail closed). */
export class DenyListUnreadableError extends Error {
  constructor(message: string) {
    super(`PAYOUT_DENYLIST_FILE ${message}`);
    this.name = "DenyListUnreadableError";
  }
}

/**
 * PAYOUT_DENYLIST_FILE: one address per line, optionally after its chain (`eth 0x…`); `#` starts a comment.
 * Read again whenever the file changes (its modification time or size), so an operator's edit applies to the
 * next payout. A file that is missing, unreadable or has a line of another shape (a chain we do not know, more
 * than two words) throws DenyListUnreadableError: payouts wait rather than go out half-checked.
 */
function fileEntries(): FileEntry[] {
  const file = config().payoutDenylistFile;
  if (!file) return [];
  let text: string;
  let version: string;
  try {
    const stat = fs.statSync(file);
    version = `${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}:${stat.ino}`;
    if (fileCache?.path === file && fileCache.version === version) return fileCache.entries;
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new DenyListUnreadableError(`${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  const entries = text.split("\n").flatMap((raw, i): FileEntry[] => {
    const words = raw.replace(/#.*/, "").trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    if (words.length === 1) return [{ chain: null, address: addressKey(words[0]!) }];
    if (words.length === 2 && (CHAINS as readonly string[]).includes(words[0]!))
      return [{ chain: words[0] as Chain, address: addressKey(words[1]!) }];
    throw new DenyListUnreadableError(
      `${file}, line ${i + 1}: expected "ADDRESS" or "CHAIN ADDRESS" (${CHAINS.join(", ")})`,
    );
  });
  fileCache = { path: file, version, entries };
  return entries;
}

/** Whether a payout to `address` on `chain` is denied, by the operator's file or the deny-list table. */
export async function isDenied(db: Db, chain: Chain, address: string): Promise<boolean> {
  const key = addressKey(address);
  if (fileEntries().some((e) => e.address === key && (e.chain === null || e.chain === chain))) return true;
  const [row] = await query(
    db,
    "select 1 from payout_denylist where address = $1 and (chain is null or chain = $2) limit 1",
    [key, chain],
  );
  return row !== undefined;
}

export interface DenyEntry {
  id: string;
  chain: Chain | null;
  address: string;
  reason: string | null;
  created_at: string;
  /** `cli`: added by hand; `ofac`: imported from OFAC's SDN list (import-ofac.ts); `file`: PAYOUT_DENYLIST_FILE. */
  source: "cli" | "ofac" | "file";
}

export async function addDenied(
  db: Db,
  address: string,
  chain: Chain | null,
  reason: string | null,
): Promise<DenyEntry> {
  const [row] = await query<{ id: string; created_at: Date }>(
    db,
    `insert into payout_denylist (id, chain, address, reason) values ($1, $2, $3, $4)
     on conflict (coalesce(chain, '*'), address, source) do update
     set reason = coalesce(excluded.reason, payout_denylist.reason)
     returning id, created_at`,
    [newId("deny_"), chain, addressKey(address), reason],
  );
  return {
    id: row!.id,
    chain,
    address: addressKey(address),
    reason,
    created_at: row!.created_at.toISOString(),
    source: "cli",
  };
}

/**
 * Removes an entry added by hand. OFAC's entries stay: they leave with the first import that no longer lists
 * them. Returns how many were removed, and the OFAC entry still denying the address, if any.
 */
export async function removeDenied(
  db: Db,
  address: string,
  chain: Chain | null,
): Promise<{ removed: number; ofacReason: string | null }> {
  const rows = await query<{ source: string; reason: string | null }>(
    db,
    `with gone as (delete from payout_denylist where address = $1 and chain is not distinct from $2 and source = 'cli'
       returning source, reason)
     select source, reason from gone
     union all select source, reason from payout_denylist
       where address = $1 and chain is not distinct from $2 and source = 'ofac'`,
    [addressKey(address), chain],
  );
  return {
    removed: rows.filter((r) => r.source === "cli").length,
    ofacReason: rows.find((r) => r.source === "ofac")?.reason ?? null,
  };
}

export async function listDenied(db: Db): Promise<DenyEntry[]> {
  const rows = await query<{
    id: string;
    chain: Chain | null;
    address: string;
    reason: string | null;
    created_at: Date;
    source: "cli" | "ofac";
  }>(db, "select id, chain, address, reason, created_at, source from payout_denylist order by created_at, id");
  return [
    ...rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
    ...fileEntries().map((e, i) => ({
      id: `file:${i + 1}`,
      ...e,
      reason: null,
      created_at: "",
      source: "file" as const,
    })),
  ];
}

/**
 * Why a destination is refused, given what the chain said of it just before (screen-destination.ts): sanctioned,
 * deny-listed, frozen by USDT's issuer, or null.
 */
export async function denialOf(
  db: Db,
  chain: Chain,
  address: string,
  screening: DestinationScreening,
): Promise<"sanctioned_destination" | "denied_destination" | "destination_frozen" | null> {
  if (screening.sanctioned) return "sanctioned_destination";
  if (await isDenied(db, chain, address)) return "denied_destination";
  return screening.frozen ? "destination_frozen" : null;
}
