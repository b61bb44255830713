import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { loadApiRoutes } from "@/lib/http/server/api-routes";
import { newMerchant, type TestMerchant, webUrls } from "../helpers/api";

const root = path.resolve(import.meta.dirname, "../..");

/** Every app/v1/**\/route.ts, as the route it serves (`/v1/payments/[id]`). */
function routeFiles(dir = path.join(root, "app/v1")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return routeFiles(full);
    return e.name === "route.ts" ? [path.relative(path.join(root, "app"), dir)] : [];
  });
}

/** The raw answer: headers as sent, body bytes as sent (not decompressed). */
function rawGet(p: string, headers: Record<string, string>, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(new URL(p, webUrls()[0]), { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant();
});

describe("/v1 is answered by its route handlers, called by the web server itself", () => {
  it("loads every route file under app/v1 from the build and matches a path as Next does", async () => {
    const table = await loadApiRoutes(root);
    // Null (Next serving /v1 again, at twice the CPU) if a Next upgrade changed the build's layout.
    expect(table?.size).toBe(routeFiles().length);
    const get = (p: string) => table!.match("GET", p);
    expect(get("/v1/payments/pay_1")?.params).toEqual({ id: "pay_1" });
    expect(get("/v1/events/stream")?.params).toEqual({}); // the literal route, not /v1/events/[id]
    expect(get("/v1/payments/a%20b%25ff")?.params).toEqual({ id: "a b%ff" }); // decoded, as Next gives params
    expect(get("/v1/nope/x")?.params).toEqual({ path: ["nope", "x"] }); // the catch-all's 404
    expect(get("/v1")?.params).toEqual({});
    expect(table!.match("HEAD", "/v1/payments")?.handler).toBe(get("/v1/payments")?.handler);
  });

  it(
    "a JSON answer is sent whole: its length, " + "and a Vary on Accept-Encoding alone (none of Next's router headers)",
    async () => {
      const reply = await rawGet("/v1/payments?limit=1", { authorization: `Bearer ${m.sandboxKey}` });
      expect(reply.status).toBe(200);
      expect(reply.headers["content-length"]).toBe(String(reply.body.length));
      expect(reply.headers["transfer-encoding"]).toBeUndefined();
      expect(reply.headers.vary).toBe("Accept-Encoding");
      expect(reply.headers["x-api-version"]).toBe("1");
      expect(reply.headers["request-id"]).toMatch(/^req_/);
    },
  );

  it("gzips an answer of 1 KB or more when the client accepts it, and nothing smaller", async () => {
    const plain = await rawGet("/v1/openapi.json", {});
    const zipped = await rawGet("/v1/openapi.json", { "accept-encoding": "gzip, deflate" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const refused = await rawGet("/v1/openapi.json", { "accept-encoding": "gzip;q=0, identity" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    const small = await rawGet("/v1/payments", { "accept-encoding": "gzip" }); // a 401 envelope
    expect(small.status).toBe(401);
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("HEAD is answered by GET: the same status and length, no body", async () => {
    const head = await rawGet("/v1/openapi.json", {}, "HEAD");
    const full = await rawGet("/v1/openapi.json", {});
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(full.body.length));
  });

  it("HEAD on the event stream answers its headers and ends, holding none of the key's 10 stream places", async () => {
    for (let i = 0; i < 12; i++) {
      const head = await rawGet("/v1/events/stream", { authorization: `Bearer ${m.sandboxKey}` }, "HEAD");
      expect(head.status, `HEAD ${i + 1}`).toBe(200);
      expect(head.headers["content-type"]).toMatch(/^text\/event-stream/);
      expect(head.body.length).toBe(0);
    }
  });
});
