import { describe, expect, it, vi } from "vitest";
import { apiMethods } from "@/lib/http/api/methods";
import { PAYMENT_LINKS } from "@/lib/http/api/operations/payment-links";
import { apiRoute } from "@/lib/http/api/route";
import { api, expectError, newMerchant, webUrls } from "../helpers/api";

describe("routing", () => {
  it.each(["/v1/nope", "/v1", "/v1/payment-links/extra/segments", "/v1/payments-links"])(
    "unknown path %s → 404 not_found envelope",
    async (path) => {
      for (const method of ["GET", "POST", "DELETE"]) {
        const err = expectError(await api(method, path), "not_found", 404);
        expect(err.message).toContain(path);
      }
    },
  );

  it.each(["PUT", "PATCH", "DELETE"])("%s on a known path → 405 with Allow and the envelope", async (method) => {
    const m = await newMerchant();
    const reply = await api(method, "/v1/payment-links", { key: m.sandboxKey });
    const err = expectError(reply, "invalid_request_error", 405);
    expect(reply.headers.get("allow")).toBe("GET, POST");
    expect(err.message).toMatch(new RegExp(`${method} is not supported`));
  });

  it("every response carries X-API-Version: 1 and a Request-Id, success included", async () => {
    const m = await newMerchant();
    const ok = await api("GET", "/v1/payment-links", { key: m.sandboxKey });
    expect(ok.headers.get("x-api-version")).toBe("1");
    expect(ok.headers.get("request-id")).toMatch(/^req_/);
    const page = await fetch(`${webUrls()[0]}/`);
    expect(page.headers.get("x-api-version")).toBe("1");
  });

  it("a client-supplied request id is not trusted", async () => {
    const reply = await api("GET", "/v1/payment-links", { headers: { "x-request-id": "req_AAAAAAAAAAAAAAAAAAAA" } });
    expect(expectError(reply, "unauthorized", 401).request_id).not.toBe("req_AAAAAAAAAAAAAAAAAAAA");
  });
});

describe("unexpected exceptions", () => {
  it("→ 500 internal_server_error with a request id, logged, nothing internal leaked", async () => {
    const m = await newMerchant();
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const { GET } = apiMethods({
      GET: apiRoute({
        ...PAYMENT_LINKS.retrieve,
        handler: async () => {
          throw new Error("connection to 10.0.0.5 refused: password=hunter2");
        },
      }),
    });
    const res = await GET(
      new Request("http://local/v1/boom", { headers: { authorization: `Bearer ${m.sandboxKey}` } }),
      { params: Promise.resolve({}) },
    );
    const logged = stderr.mock.calls.map((c) => String(c[0])).join("");
    stderr.mockRestore();
    const body = await res.json();
    expect(res.status).toBe(500);
    expect(body.error.type).toBe("internal_server_error");
    expect(body.error.status).toBe(500);
    expect(body.error.message).toContain(body.error.request_id);
    expect(JSON.stringify(body)).not.toMatch(/10\.0\.0\.5|hunter2|Error:|at /);
    expect(res.headers.get("x-api-version")).toBe("1");
    expect(logged).toContain(body.error.request_id);
    expect(logged).toContain("connection to 10.0.0.5 refused");
  });
});
