import { describe, expect, it } from "vitest";
import { createApiKey, MAX_KEYS_PER_MODE } from "@/lib/identity/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { rotateApiKey } from "@/lib/identity/api-keys/rotate-api-key";
import { getDb } from "@/lib/platform/db/client";
import { newMerchant } from "../helpers/api";

describe("keys per merchant and mode", () => {
  it(
    `at most ${MAX_KEYS_PER_MODE} working keys in a mode, even created at once; ` +
      `a roll and the other mode are not held back`,
    async () => {
      const m = await newMerchant(); // one sandbox and one live key
      const create = () => createApiKey(getDb(), { merchantId: m.id, mode: "sandbox", scopes: ["payments:read"] });
      const made = await Promise.allSettled(Array.from({ length: MAX_KEYS_PER_MODE + 4 }, create));
      const refused = made.filter((r) => r.status === "rejected");
      expect(made.length - refused.length).toBe(MAX_KEYS_PER_MODE - 1);
      expect(refused).toHaveLength(5);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          param: "mode",
          message:
            `This account already has ${MAX_KEYS_PER_MODE} working sandbox API keys: ` +
            `revoke one it no longer uses first.`,
        });
      // A roll replaces a key: allowed at the limit. The live mode counts its own.
      const rolled = await rotateApiKey(getDb(), m.sandboxKeyId);
      expect(rolled.replaces).toBe(m.sandboxKeyId);
      await expect(createApiKey(getDb(), { merchantId: m.id, mode: "live" })).resolves.toMatchObject({ mode: "live" });
      // A revoked key frees its place.
      await revokeApiKey(getDb(), rolled.id);
      await expect(create()).resolves.toMatchObject({ mode: "sandbox" });
      await expect(create()).rejects.toMatchObject({ param: "mode" });
    },
  );
});
