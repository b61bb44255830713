import { beforeAll, describe, expect, it } from "vitest";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant();
});

const post = (body: Partial<Parameters<typeof api>[2]>) =>
  api("POST", "/v1/payment-links", { key: m.sandboxKey, ...body });

describe("request body", () => {
  it("rejects a body that is not JSON", async () => {
    const err = expectError(
      await post({ rawBody: "{amount:", headers: { "content-type": "application/json" } }),
      "invalid_request_error",
      400,
    );
    expect(err.message).toMatch(/not valid JSON/);
  });

  it("rejects a wrong content type", async () => {
    const err = expectError(
      await post({ rawBody: "amount=5", headers: { "content-type": "application/x-www-form-urlencoded" } }),
      "invalid_request_error",
      400,
    );
    expect(err.message).toMatch(/Content-Type must be application\/json/);
  });

  it("rejects a body without a content type", async () => {
    expectError(await post({ rawBody: '{"amount":"5"}' }), "invalid_request_error", 400);
  });

  it.each([
    ["an array", "[1,2]", /not an array/],
    ["a string", '"25.000000"', /not a string/],
    ["null", "null", /not null/],
    ["a number", "42", /not a number/],
  ])("rejects %s as body", async (_what, raw, message) => {
    const err = expectError(
      await post({ rawBody: raw, headers: { "content-type": "application/json" } }),
      "invalid_request_error",
      400,
    );
    expect(err.message).toMatch(message);
  });

  it("accepts a charset parameter on the content type", async () => {
    const reply = await post({
      rawBody: '{"amount":"5"}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(reply.status).toBe(200);
  });

  it("rejects an oversized body", async () => {
    const err = expectError(
      await post({ body: { amount: "5", description: "x".repeat(70_000) } }),
      "invalid_request_error",
      400,
    );
    expect(err.message).toMatch(/larger than/);
  });
});

describe("field validation names the field in param", () => {
  it("missing required field", async () => {
    const err = expectError(await post({ body: { description: "no amount" } }), "invalid_request_error", 400, "amount");
    expect(err.message).toBe("Missing required parameter: 'amount'.");
  });

  it.each([
    [25, /got a number/],
    ["-1", /got "-1"/],
    ["1e3", /got "1e3"/],
    ["1.1234567", /up to 6 decimals/],
    ["0", /greater than 0/],
    ["0.000000", /greater than 0/],
    [" 5", /got " 5"/],
    ["05", /got "05"/],
    ["100000000000.000001", /at most/],
  ])("amount %j is refused", async (amount, message) => {
    const err = expectError(await post({ body: { amount } }), "invalid_request_error", 400, "amount");
    expect(err.message).toMatch(message);
  });

  it("description longer than 500 characters", async () => {
    const err = expectError(
      await post({ body: { amount: "1", description: "d".repeat(501) } }),
      "invalid_request_error",
      400,
      "description",
    );
    expect(err.message).toMatch(/at most 500 characters/);
  });

  it("description of the wrong type", async () => {
    const err = expectError(
      await post({ body: { amount: "1", description: 7 } }),
      "invalid_request_error",
      400,
      "description",
    );
    expect(err.message).toMatch(/must be a string/);
  });

  it("unknown parameters are refused by name", async () => {
    const err = expectError(await post({ body: { amount: "1", amout: "2" } }), "invalid_request_error", 400, "amout");
    expect(err.message).toBe("Unknown parameter: 'amout'.");
  });

  it("unknown query parameters on a list are refused", async () => {
    const err = expectError(
      await api("GET", "/v1/payment-links?limit=5", { key: m.sandboxKey }),
      "invalid_request_error",
      400,
      "limit",
    );
    expect(err.message).toMatch(/Unknown parameter/);
  });

  it("no partial writes: failed validations created nothing", async () => {
    const fresh = await newMerchant();
    for (const body of [{ amount: "x" }, { amount: "1", extra: true }, { amount: "1", description: "d".repeat(501) }]) {
      expect((await api("POST", "/v1/payment-links", { key: fresh.sandboxKey, body })).status).toBe(400);
    }
    expect((await api("GET", "/v1/payment-links", { key: fresh.sandboxKey })).json.data).toEqual([]);
  });
});

describe("payment link shape (the pipeline's real route)", () => {
  it("creates a link exactly as docs/API.md documents it", async () => {
    const before = Date.now();
    const reply = await post({ body: { amount: "12.5", description: "Coffee beans" } });
    expect(reply.status).toBe(200);
    const link = reply.json;
    expect(Object.keys(link).sort()).toEqual([
      "active",
      "amount",
      "created_at",
      "currency",
      "description",
      "expires_at",
      "id",
      "object",
      "url",
    ]);
    expect(link.id).toMatch(/^pl_[0-9A-Za-z]{24}$/);
    expect(link.object).toBe("payment_link");
    expect(link.amount).toBe("12.500000");
    expect(link.currency).toBe("USDT");
    expect(link.active).toBe(true);
    expect(link.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBe(30 * 60 * 1000);
    expect(Date.parse(link.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(link.url).toMatch(/^http:\/\/localhost:\d+\/pay\/[0-9A-Za-z]{32}$/);
  });

  it("omits description when none was given", async () => {
    const reply = await post({ body: { amount: "3" } });
    expect(reply.json).not.toHaveProperty("description");
  });
});
