import { ANY_KEY, changeFeed } from "@/lib/platform/db/change-feed";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import type { AuthContext } from "./authenticate-api-key";
import { hasScope, type Scope } from "./scopes";
import { API_KEY_CHANGED, KEY_CACHE_TTL_MS } from "./verified-key-cache";

export interface KeyWatch {
  /** Aborts with the request's signal, or once the key is revoked, rotated past its overlap or loses `scope`. */
  signal: AbortSignal;
  /** Before each read of something the key gives: false (and `signal` aborted) once the key no longer may. */
  stillAllowed: () => Promise<boolean>;
  close: () => void;
}

/**
 * Watches the key a long request (the event stream) was opened with, so a revoke or re-scope ends it as it
 * refuses the key's next request: every key change the database notifies (and a reconnect of this process's
 * change feed, which may have missed one) re-reads the key at once, and `stillAllowed` re-reads it when the
 * last read is older than the key cache's TTL, or always while the feed is not listening. Fails closed: a
 * read that fails ends the request too.
 */
export function watchApiKey(db: Db, auth: AuthContext, scope: Scope, requestSignal: AbortSignal): KeyWatch {
  const controller = new AbortController();
  const end = () => controller.abort();
  requestSignal.addEventListener("abort", end, { once: true });
  let checkedAt = Date.now(); // the request's own authentication was the first read
  const check = async (): Promise<boolean> => {
    const started = Date.now();
    const [key] = await query<{ scopes: string[] }>(
      db,
      "select scopes from api_keys where id = $1 and (revoked_at is null or revoked_at > now())",
      [auth.keyId],
    ).catch(() => [undefined]);
    if (!key || !hasScope(key.scopes, scope)) {
      end();
      return false;
    }
    checkedAt = started;
    return !controller.signal.aborted;
  };
  const feed = changeFeed();
  const unsubscribe = feed.subscribe(API_KEY_CHANGED, ANY_KEY, () => void check());
  return {
    signal: controller.signal,
    stillAllowed: async () => {
      if (controller.signal.aborted) return false;
      const fresh = feed.isListening(API_KEY_CHANGED) && Date.now() - checkedAt < KEY_CACHE_TTL_MS;
      return fresh || check();
    },
    close: () => {
      unsubscribe();
      requestSignal.removeEventListener("abort", end);
    },
  };
}
