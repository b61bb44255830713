import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectError, newMerchant, type TestMerchant, webUrls } from "../helpers/api";

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant();
});

/** POSTs `first`, then keeps the request open without ending it; resolves with the response that comes anyway. */
function postWithoutEnding(key: string, first: Buffer, headers: Record<string, string | number>) {
  const url = new URL("/v1/payment-links", webUrls()[0]);
  return new Promise<{ status: number; body: string; req: http.ClientRequest; connection?: string }>(
    (resolve, reject) => {
      const req = http.request(url, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body, req, connection: res.headers.connection }));
      });
      req.on("error", reject);
      req.write(first);
    },
  );
}

describe("request bodies are read up to 64 KiB and no further", () => {
  it("a chunked body is refused once it passes the limit, without waiting for its end", async () => {
    const reply = await postWithoutEnding(m.sandboxKey, Buffer.alloc(70_000, 0x20), {});
    reply.req.destroy();
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.message).toMatch(/larger than 65536 bytes/);
    // The rest is never read: the server closes the connection rather than leave it waiting on an unread body.
    expect(reply.connection).toBe("close");
  });

  it("a declared Content-Length over the limit is refused before the body is sent", async () => {
    const reply = await postWithoutEnding(m.sandboxKey, Buffer.from("{"), { "content-length": 10_000_000 });
    reply.req.destroy();
    expect(reply.status).toBe(400);
    expect(reply.connection).toBe("close");
  });

  it("the limit counts bytes, not characters", async () => {
    // 40,000 three-byte characters: 120 kB although under 65,536 characters.
    const err = expectError(
      await api("POST", "/v1/payment-links", {
        key: m.sandboxKey,
        body: { amount: "5", description: "€".repeat(40_000) },
      }),
      "invalid_request_error",
      400,
    );
    expect(err.message).toMatch(/larger than/);
  });

  it("refuses a leading byte-order mark and invalid UTF-8, accepts plain UTF-8", async () => {
    const send = (raw: Buffer) =>
      fetch(`${webUrls()[0]}/v1/payment-links`, {
        method: "POST",
        headers: { authorization: `Bearer ${m.sandboxKey}`, "content-type": "application/json" },
        body: new Uint8Array(raw),
      }).then(async (r) => ({ status: r.status, json: await r.json() }));
    const json = Buffer.from('{"amount":"5","description":"Café"}');
    const bom = await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]));
    expect(bom.status).toBe(400);
    expect(bom.json.error.message).toMatch(/byte-order mark/);
    const invalid = await send(Buffer.from([...Buffer.from('{"amount":"5","description":"'), 0xc3, 0x28, 0x22, 0x7d]));
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.message).toMatch(/not valid UTF-8/);
    const ok = await send(json);
    expect(ok.status).toBe(200);
    expect(ok.json.description).toBe("Café");
  });
});
