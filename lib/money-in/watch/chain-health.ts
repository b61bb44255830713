import type { Db } from "@/lib/platform/db/client";
import { execute } from "@/lib/platform/db/query";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import { redactText } from "@/lib/platform/log-redaction";

// What the dashboard's chain health reads (lib/money-in/watch/load-chain-health.ts): the head each watcher last saw and
// its last failure. Best effort: a watcher whose database is down cannot record that either.

/** The head a scan read, and when. */
export async function recordHead(db: Db, scope: Pick<WatchScope, "mode" | "chain">, head: number): Promise<void> {
  await execute(db, "update chain_cursors set head_number = $3, head_seen_at = now() where mode = $1 and chain = $2", [
    scope.mode,
    scope.chain,
    head,
  ]);
}

/** A failed scan: its message, stripped of URL credentials (live RPC URLs carry API keys), at most 500 characters. */
export async function recordScanError(db: Db, scope: Pick<WatchScope, "mode" | "chain">, error: string): Promise<void> {
  await execute(db, "update chain_cursors set last_error = $3, last_error_at = now() where mode = $1 and chain = $2", [
    scope.mode,
    scope.chain,
    redactText(error).slice(0, 500),
  ]);
}
