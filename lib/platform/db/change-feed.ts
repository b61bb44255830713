import pg from "pg";
import { config } from "@/lib/platform/config/env";

/**
 * What the database says changed, pushed: triggers call pg_notify when a transaction commits a change the
 * live streams show (db/migrations/0034_change_notifications.sql), and one listening connection per
 * process hands each notification to the streams that wait on it, in memory. A notification's payload is
 * `<key>` or `<key> <detail>`; a subscriber names the channel and the key it waits on.
 *
 * A notification sent while the connection is down is lost, so on every (re)connect each subscriber is
 * woken without a payload and reads again. A connection that died silently is found by a check every
 * 30 s on it, so nothing waits longer than that for a change made while it was down.
 */
export type ChangeHandler = (detail: string | null) => void;

/** Subscribed under this key, a handler hears every key of its channel (as its `detail`). */
export const ANY_KEY = "*";

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 5_000;
const CHECK_MS = 30_000;
/** How the listening connection shows in pg_stat_activity. */
export const FEED_APPLICATION_NAME = "usdt change feed";

class ChangeFeed {
  private readonly handlers = new Map<string, Map<string, Set<ChangeHandler>>>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryMs = RETRY_MIN_MS;
  private check: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private readonly listening = new Set<string>();

  constructor(private readonly url: string) {}

  subscribe(channel: string, key: string, handler: ChangeHandler): () => void {
    let keys = this.handlers.get(channel);
    const newChannel = !keys;
    if (!keys) this.handlers.set(channel, (keys = new Map()));
    let set = keys.get(key);
    if (!set) keys.set(key, (set = new Set()));
    set.add(handler);
    // A change committed before LISTEN took effect is not sent: the channel's subscribers read again then.
    const client = this.client;
    if (newChannel && client)
      client.query(`listen ${quoteChannel(channel)}`).then(
        () => {
          this.listening.add(channel);
          this.wake(this.handlers.get(channel));
        },
        () => this.drop(client),
      );
    else this.ensureConnected();
    return () => {
      set.delete(handler);
      if (set.size === 0) keys.delete(key);
    };
  }

  /** The listening connection's server process id, while connected (for tests and diagnostics). */
  get pid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }

  /** Notifications on `channel` are being received now: a change committed now will be heard. */
  isListening(channel: string): boolean {
    return this.listening.has(channel);
  }

  /** Resolves once notifications on `channel` are being received (for tests). */
  async whenListening(channel: string): Promise<void> {
    while (!this.listening.has(channel)) await new Promise((r) => setTimeout(r, 20));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.check) clearInterval(this.check);
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private ensureConnected(): void {
    if (this.client || this.connecting || this.closed) return;
    this.connecting = this.connect().finally(() => (this.connecting = null));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      application_name: FEED_APPLICATION_NAME,
    });
    client.on("error", () => this.drop(client));
    client.on("end", () => this.drop(client));
    client.on("notification", (n) => this.dispatch(n.channel, n.payload ?? ""));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`listen ${quoteChannel(channel)}`);
    } catch {
      client.end().catch(() => {});
      this.retryLater();
      return;
    }
    if (this.closed) return void client.end().catch(() => {});
    this.client = client;
    for (const channel of this.handlers.keys()) this.listening.add(channel);
    this.retryMs = RETRY_MIN_MS;
    this.check ??= setInterval(() => {
      this.client?.query("select 1").catch(() => this.drop());
    }, CHECK_MS);
    this.check.unref();
    // Whatever changed while nobody listened: every subscriber reads again.
    for (const keys of this.handlers.values()) this.wake(keys);
  }

  private wake(keys: Map<string, Set<ChangeHandler>> | undefined): void {
    for (const set of keys?.values() ?? []) for (const handler of set) handler(null);
  }

  private dispatch(channel: string, payload: string): void {
    const space = payload.indexOf(" ");
    const key = space < 0 ? payload : payload.slice(0, space);
    const keys = this.handlers.get(channel);
    for (const handler of keys?.get(ANY_KEY) ?? []) handler(key);
    const set = keys?.get(key);
    if (!set) return;
    const detail = space < 0 ? null : payload.slice(space + 1);
    for (const handler of set) handler(detail);
  }

  private drop(client = this.client): void {
    if (!client || client !== this.client) return;
    this.client = null;
    this.listening.clear();
    client.end().catch(() => {});
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    setTimeout(() => this.ensureConnected(), wait).unref();
  }
}

/** Channel names are the code's own constants; quoting keeps LISTEN exact for any of them. */
const quoteChannel = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

// Route handlers are bundled by Next while scripts run under tsx: one feed per process on globalThis.
const registry = globalThis as unknown as { __usdtChangeFeed?: { url: string; feed: ChangeFeed } };

/** This process's change feed for DATABASE_URL, connected on first use. */
export function changeFeed(): ChangeFeed {
  const url = config().databaseUrl;
  if (!url) throw new Error("DATABASE_URL is not set");
  if (!registry.__usdtChangeFeed || registry.__usdtChangeFeed.url !== url) {
    void registry.__usdtChangeFeed?.feed.close();
    registry.__usdtChangeFeed = { url, feed: new ChangeFeed(url) };
  }
  return registry.__usdtChangeFeed.feed;
}

export async function closeChangeFeed(): Promise<void> {
  const current = registry.__usdtChangeFeed;
  registry.__usdtChangeFeed = undefined;
  await current?.feed.close();
}

/**
 * A latch over one key's notifications, taken before the first read so that no change between a read and
 * the next wait is missed: `next` returns at once if anything arrived since the last call.
 */
export function changeSignal(channel: string, key: string) {
  let pending: (string | null)[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = changeFeed().subscribe(channel, key, (detail) => {
    // A reader far behind needs only "read everything", not each detail.
    if (pending.length >= 1_000) pending = [null];
    else pending.push(detail);
    wake?.();
  });
  return {
    /** The details that arrived (null: a reconnect, read everything), or [] after `timeoutMs` or an abort. */
    async next(timeoutMs: number, signal?: AbortSignal): Promise<(string | null)[]> {
      if (!pending.length && !signal?.aborted)
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", done);
            wake = null;
            resolve();
          };
          const timer = setTimeout(done, timeoutMs);
          signal?.addEventListener("abort", done, { once: true });
          wake = done;
        });
      const details = pending;
      pending = [];
      return details;
    },
    close: unsubscribe,
  };
}
