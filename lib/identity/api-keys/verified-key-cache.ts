import { ANY_KEY, changeFeed } from "@/lib/platform/db/change-feed";

/** Sent by the database when a key is revoked, rotated, re-scoped or deleted: the key's secret hash. */
export const API_KEY_CHANGED = "api_key_changed";
/** How long a verified key is trusted without reading it again, when no change is heard meanwhile. */
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * Verified API keys, per process, by secret hash, for a few seconds: most requests then make no
 * authentication round trip. A revoke or rotate still takes effect at once on every instance: the
 * database notifies each change of a key at its commit (db/migrations/0035_api_key_notifications.sql)
 * and every process drops that key. Fails closed: while this process's change feed is not listening
 * (connecting, or its connection lost) nothing is served from the cache, and a change heard while a key
 * was being read keeps that read out of the cache.
 */
class VerifiedKeyCache<T> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private generation = 0;
  private feed: ReturnType<typeof changeFeed> | null = null;

  get(hash: string, now = Date.now()): T | null {
    if (!this.listening()) return null;
    const entry = this.entries.get(hash);
    if (!entry) return null;
    if (now - entry.at <= KEY_CACHE_TTL_MS) return entry.value;
    this.entries.delete(hash);
    return null;
  }

  /** Taken before reading a key: `put` keeps the read only if nothing changed since. */
  mark(): number {
    this.listening();
    return this.generation;
  }

  put(hash: string, value: T, mark: number, now = Date.now()): void {
    if (mark !== this.generation || !this.listening()) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { value, at: now });
  }

  private listening(): boolean {
    const feed = changeFeed();
    if (this.feed !== feed) {
      // First use, or the process's database changed (tests): what was cached came from another feed.
      this.feed = feed;
      this.entries.clear();
      this.generation++;
      feed.subscribe(API_KEY_CHANGED, ANY_KEY, (hash) => {
        this.generation++;
        if (hash === null) this.entries.clear();
        else this.entries.delete(hash);
      });
    }
    return feed.isListening(API_KEY_CHANGED);
  }
}

// Route handlers are bundled by Next while scripts run under tsx: one cache per process on globalThis.
const registry = globalThis as unknown as { __usdtKeyCache?: VerifiedKeyCache<unknown> };

export function verifiedKeyCache<T>(): VerifiedKeyCache<T> {
  registry.__usdtKeyCache ??= new VerifiedKeyCache<unknown>();
  return registry.__usdtKeyCache as VerifiedKeyCache<T>;
}
