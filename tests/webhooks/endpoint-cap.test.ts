import { describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ENDPOINTS } from "@/lib/notify/webhooks/create-webhook-endpoint";
import { api, expectError, newMerchant } from "../helpers/api";

const register = (key: string, i: number) =>
  api("POST", "/v1/webhooks", { key, body: { url: `https://8.8.8.8/${i}` } });

describe("webhook endpoints per merchant", () => {
  it(
    `at most ${MAX_WEBHOOK_ENDPOINTS} per mode, even when created all at once; ` + `a deleted one frees its place`,
    async () => {
      const m = await newMerchant();
      const replies = await Promise.all(
        Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 2 }, (_, i) => register(m.sandboxKey, i)),
      );
      const created = replies.filter((r) => r.status === 200);
      expect(created).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
      for (const refused of replies.filter((r) => r.status !== 200)) {
        expect(expectError(refused, "invalid_request_error", 400).message).toContain("delete one first");
      }
      const listed = (await api("GET", "/v1/webhooks?limit=100", { key: m.sandboxKey })).json.data;
      expect(listed).toHaveLength(MAX_WEBHOOK_ENDPOINTS);

      // The live mode has its own room; deleting one sandbox endpoint makes room for one more.
      expect((await register(m.liveKey, 0)).status).toBe(200);
      expect((await api("DELETE", `/v1/webhooks/${created[0]!.json.id}`, { key: m.sandboxKey })).status).toBe(200);
      expect((await register(m.sandboxKey, 99)).status).toBe(200);
      expectError(await register(m.sandboxKey, 100), "invalid_request_error", 400);
    },
  );
});
