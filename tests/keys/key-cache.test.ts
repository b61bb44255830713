import { describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/lib/identity/api-keys/authenticate-api-key";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { API_KEY_CHANGED, KEY_CACHE_TTL_MS } from "@/lib/identity/api-keys/verified-key-cache";
import { changeFeed } from "@/lib/platform/db/change-feed";
import { getDb, getPool } from "@/lib/platform/db/client";
import { newMerchant } from "../helpers/api";
import { countingDb } from "../helpers/counting-db";
import { until } from "../helpers/started-service";

const refused = (db: Parameters<typeof authenticateApiKey>[0], key: string) =>
  authenticateApiKey(db, `Bearer ${key}`).then(
    () => false,
    (err: { type?: string }) => err.type === "unauthorized",
  );

describe("verified API keys, cached per process", () => {
  it("are read once, then served without a statement until a change to the key is heard", async () => {
    const m = await newMerchant();
    const counting = countingDb();
    try {
      await authenticateApiKey(getDb(), `Bearer ${m.liveKey}`); // the process listens from its first key
      await changeFeed().whenListening(API_KEY_CHANGED);
      const first = await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`);
      expect(first).toMatchObject({ merchantId: m.id, mode: "sandbox" });
      const read = counting.statements();
      expect(read).toBe(1);
      expect(await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`)).toEqual(first);
      expect(counting.statements()).toBe(read); // from the cache

      const revokedAt = Date.now();
      await revokeApiKey(getDb(), m.sandboxKeyId);
      await until("the revoked key refused", () => refused(counting.db, m.sandboxKey), 1_000);
      expect(Date.now() - revokedAt).toBeLessThan(KEY_CACHE_TTL_MS);
    } finally {
      await counting.close();
    }
  });

  it("fail closed: while the change feed is not listening, every key is read from the database", async () => {
    const m = await newMerchant();
    const counting = countingDb();
    try {
      await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`);
      await changeFeed().whenListening(API_KEY_CHANGED);
      await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`);
      await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`);
      const cached = counting.statements();
      expect(await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`)).toMatchObject({ merchantId: m.id });
      expect(counting.statements()).toBe(cached);

      const pid = changeFeed().pid!;
      await getPool().query("select pg_terminate_backend($1, 5000)", [pid]);
      await until("the feed to notice", async () => !changeFeed().isListening(API_KEY_CHANGED), 5_000);
      // A revoke now would not be heard: the key is read, not trusted from memory.
      await authenticateApiKey(counting.db, `Bearer ${m.sandboxKey}`);
      expect(counting.statements()).toBe(cached + 1);
      await changeFeed().whenListening(API_KEY_CHANGED);
    } finally {
      await counting.close();
    }
  });
});
