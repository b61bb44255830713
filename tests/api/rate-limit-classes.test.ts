import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/http/api/errors";
import { enforceKeyRateLimit } from "@/lib/http/api/rate-limit";
import { getDb } from "@/lib/platform/db/client";
import { authenticateApiKey } from "@/lib/identity/api-keys/authenticate-api-key";
import { newMerchant } from "../helpers/api";

describe("rate-limit classes", () => {
  it("payout and replay calls have their own 10/min windows, separate from the default 60", async () => {
    const m = await newMerchant();
    const auth = await authenticateApiKey(getDb(), `Bearer ${m.sandboxKey}`);
    for (let i = 0; i < 10; i++) expect((await enforceKeyRateLimit(auth, "payouts"))["RateLimit-Limit"]).toBe("10");
    const limited = await enforceKeyRateLimit(auth, "payouts").catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ApiError);
    expect((limited as ApiError).type).toBe("rate_limit_exceeded");
    expect((limited as ApiError).headers["Retry-After"]).toMatch(/^\d+$/);
    // The default window and the replay window are untouched by the payout calls.
    expect((await enforceKeyRateLimit(auth, "default"))["RateLimit-Remaining"]).toBe("59");
    for (let i = 0; i < 10; i++) await enforceKeyRateLimit(auth, "replay");
    await expect(enforceKeyRateLimit(auth, "replay")).rejects.toMatchObject({ type: "rate_limit_exceeded" });
  });
});
