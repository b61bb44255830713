import { describe, expect, it } from "vitest";
import { checkAgainstOpenApi } from "../helpers/openapi-contract";

const headers = new Headers({ "x-api-version": "1", "request-id": "req_AAAAAAAAAAAAAAAAAAAA" });
const payment = {
  id: "pay_1",
  object: "payment",
  status: "awaiting_payment",
  chain: "eth",
  amount: "25.000000",
  currency: "USDT",
  amount_received: "0.000000",
  amount_refunded: "0.000000",
  deposit_address: "0x0000000000000000000000000000000000000001",
  metadata: {},
  customer: null,
  checkout_url: "http://localhost:3000/checkout/pay_1",
  tx_hash: null,
  payer_address: null,
  transfers: [],
  confirmations: 0,
  expires_at: "2026-11-27T10:00:00.000Z",
  created_at: "2026-11-27T09:30:00.000Z",
};
const error = (type: string, status: number) =>
  JSON.stringify({ error: { type, message: "m", status, param: null, request_id: "req_AAAAAAAAAAAAAAAAAAAA" } });
const check = (method: string, path: string, status: number, body: unknown, h = headers) =>
  checkAgainstOpenApi(
    method,
    `http://127.0.0.1:3000${path}`,
    status,
    h,
    typeof body === "string" ? body : JSON.stringify(body),
  );

// The API tests' contract check must be able to fail, or every API test would pass it vacuously.
describe("the API tests' OpenAPI contract check", () => {
  it("passes a documented answer", () => {
    expect(() => check("GET", "/v1/payments/pay_1", 200, payment)).not.toThrow();
    expect(() => check("GET", "/v1/payments/pay_1", 404, error("not_found", 404))).not.toThrow();
    expect(() => check("PUT", "/v1/payments", 405, error("invalid_request_error", 405))).not.toThrow();
  });

  it("fails a body that is not the documented object: a field missing, one undocumented, a wrong type", () => {
    const { amount: _amount, ...missing } = payment;
    expect(() => check("GET", "/v1/payments/pay_1", 200, missing)).toThrow("must have required property 'amount'");
    expect(() => check("GET", "/v1/payments/pay_1", 200, { ...payment, secret: "x" })).toThrow(
      "must NOT have additional properties",
    );
    expect(() => check("GET", "/v1/payments/pay_1", 200, { ...payment, amount: 25 })).toThrow("OpenAPI contract");
  });

  it("fails a status the operation does not document, a non-JSON body and missing headers", () => {
    expect(() => check("GET", "/v1/payments/pay_1", 422, error("insufficient_balance", 422))).toThrow(
      "does not document status 422",
    );
    expect(() => check("GET", "/v1/payments/pay_1", 200, "<html>")).toThrow("not JSON");
    expect(() => check("GET", "/v1/payments/pay_1", 200, payment, new Headers())).toThrow("X-API-Version");
    expect(() => check("GET", "/v1/nowhere", 404, { oops: true })).toThrow("OpenAPI contract");
  });
});
