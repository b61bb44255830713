import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/public/checkout/[id]/events/route";

// Found by the fuzz suite (tests/fuzz): the checkout's event stream answered an unknown id with a JSON
// error that was not the API's envelope (no status, param or request_id).
describe("the public checkout event stream for an id that names no payment", () => {
  it("answers 404 in the API's error envelope, with the request's id", async () => {
    const requestId = "req_0123456789abcdefABCD";
    const req = new Request("http://localhost/api/public/checkout/pay_nothing/events", {
      headers: { "x-request-id": requestId },
    });
    const res = await GET(req, { params: Promise.resolve({ id: "pay_nothing" }) });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("x-api-version")).toBe("1");
    expect(res.headers.get("request-id")).toBe(requestId);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({
      error: {
        type: "not_found",
        message: "No such checkout: 'pay_nothing'",
        status: 404,
        param: "id",
        request_id: requestId,
      },
    });
  });
});
