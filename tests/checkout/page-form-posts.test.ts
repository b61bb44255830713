import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { api, newMerchant } from "../helpers/api";
import { freshIpv4, spawnProxiedWebServer } from "../helpers/edge-client";

// Server actions arrive as multipart POSTs to the page; a body that is not multipart must not reach Next,
// which answers it with a 500.
let web: SpawnedWebServer;
let checkoutPath: string;
beforeAll(async () => {
  web = await spawnProxiedWebServer();
  const m = await newMerchant();
  const payment = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount: "1.000000" } });
  checkoutPath = `/checkout/${payment.json.id}`;
});
afterAll(async () => {
  await web?.stop();
});

const post = (contentType: string, body: string, extra: Record<string, string> = {}) =>
  fetch(`${web.url}${checkoutPath}`, {
    method: "POST",
    headers: { "content-type": contentType, "x-forwarded-for": freshIpv4(), ...extra },
    body,
    redirect: "manual",
  });

describe("form posts to a hosted page", () => {
  it.each([
    ["a JSON body", '{"a":1}', {}],
    ["a truncated part", "--x\r\nnot a part", {}],
    ["a truncated part with a server action id", "--x\r\nnot a part", { "next-action": "0".repeat(42) }],
  ])("refuses a malformed multipart body (%s) with a 400 page that keeps the page headers", async (_n, body, extra) => {
    const res = await post("multipart/form-data; boundary=x", body, extra);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(await res.text()).toContain("could not be read");
  });

  it("passes a well-formed form on to the page (no 500)", async () => {
    const form = new FormData();
    form.set("$ACTION_ID_0000", "");
    form.set("chain", "eth");
    const wellFormed = await fetch(`${web.url}${checkoutPath}`, {
      method: "POST",
      headers: { "x-forwarded-for": freshIpv4() },
      body: form,
      redirect: "manual",
    });
    expect(wellFormed.status).toBeLessThan(500);
  });

  it("refuses a form over 64 KiB as soon as it passes the limit", async () => {
    const url = new URL(checkoutPath, web.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x", "x-forwarded-for": freshIpv4() },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      req.write(`--x\r\n${"a".repeat(70_000)}`); // chunked, never ended: the answer must not wait for the end
    });
    expect(status).toBe(400);
  });
});
