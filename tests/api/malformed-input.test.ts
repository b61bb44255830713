import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { api, type ApiReply, expectError, newMerchant, type TestMerchant, webUrls } from "../helpers/api";
import { rawRequest } from "../helpers/edge-client";

// Every shape of malformed input the fuzzing found answering 500 (or a bare 400), each with the envelope
// it must get: status, type, param, X-API-Version and Request-Id (checked by expectError).
let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant("Malformed input");
});

type Case = [name: string, status: number, type: string, param: string | null];

describe("malformed path segments under /v1", () => {
  const cases: [...Case, method: string, path: string][] = [
    ["bare %", 404, "not_found", "id", "GET", "/v1/payments/%"],
    ["%ff (not UTF-8)", 404, "not_found", "id", "GET", "/v1/payments/%ff"],
    ["%zz (not hex)", 404, "not_found", "id", "GET", "/v1/payments/%zz"],
    ["half an escape", 404, "not_found", "id", "GET", "/v1/payments/pay_%f"],
    ["encoded lone surrogate", 404, "not_found", "id", "GET", "/v1/payments/%ED%A0%80"],
    ["overlong UTF-8 dot", 404, "not_found", "id", "GET", "/v1/payments/%C0%AE"],
    ["encoded NUL in an id", 404, "not_found", "id", "GET", "/v1/payments/pay_%00"],
    ["encoded newline in an id", 404, "not_found", "id", "GET", "/v1/payouts/po_%0Ax"],
    ["NUL in a sub-resource id", 404, "not_found", "id", "POST", "/v1/payments/pay_%00/replay"],
    ["NUL in a chain", 404, "not_found", "chain", "POST", "/v1/sandbox/chains/eth%00/mine"],
    ["bad escape on an unknown path", 404, "not_found", null, "GET", "/v1/%ff/x"],
    ["backslash in the path", 400, "invalid_request_error", null, "GET", "/v1\\payments"],
  ];
  it.each(cases)("%s", async (_name, status, type, param, method, path) => {
    const reply = await rawRequest(webUrls()[0]!, path, { method, key: m.sandboxKey });
    expectError(asApiReply(reply), type, status, param);
  });
});

describe("the /v1 edge answers only envelopes, never a redirect or a page", () => {
  it.each([
    ["GET", "/v1//payments", "/v1/payments"],
    ["GET", "/v1/payments/", "/v1/payments"],
    ["POST", "/v1/sandbox/payments//simulate", "/v1/sandbox/payments/simulate"],
    ["POST", "/v1/payments/", "/v1/payments"],
    ["GET", "/v1/x/../balances", "/v1/balances"],
    ["DELETE", "/v1/./webhooks", "/v1/webhooks"],
    ["GET", "/v1/payment-links/#frag", "/v1/payment-links"],
  ])("%s %s, with an empty or dot segment, is a 404 naming %s", async (method, path, meant) => {
    const reply = asApiReply(await rawRequest(webUrls()[0]!, path, { method, key: m.sandboxKey }));
    const err = expectError(reply, "not_found", 404, null);
    expect(err.message).toContain(`did you mean ${meant}?`);
    expect(reply.headers.get("location")).toBeNull();
  });

  it("escaped letters and digits are the same path: the resource is served", async () => {
    for (const path of ["/%761/balances", "/v1/bal%61nces"]) {
      const reply = asApiReply(await rawRequest(webUrls()[0]!, path, { key: m.sandboxKey }));
      expect({ path, status: reply.status }).toEqual({ path, status: 200 });
      expect(reply.json).toMatchObject({ object: "list" });
    }
  });

  it("an absolute-form request line is served on its path", async () => {
    const host = new URL(webUrls()[0]!).host;
    const auth = `Authorization: Bearer ${m.sandboxKey}\r\nConnection: close`;
    const ok = await rawSocketRequest(`GET http://${host}/v1/balances HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ object: "list" });
    const missing = await rawSocketRequest(
      `POST http://${host}/v1//payments HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\nContent-Length: 0\r\n\r\n`,
    );
    expectError(missing, "not_found", 404, null);
    const refused = await rawSocketRequest(
      `GET http://${host}/v1\\balances HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\n\r\n`,
    );
    expectError(refused, "invalid_request_error", 400, null);
  });

  it("Next's router headers (RSC, Next-Action, prefetch) change nothing on /v1", async () => {
    const host = new URL(webUrls()[0]!).host;
    const headers = [
      `Host: ${host}`,
      `Authorization: Bearer ${m.sandboxKey}`,
      "RSC: 1",
      "Next-Router-Prefetch: 1",
      "Next-Router-State-Tree: %5B%22%22%5D",
      "Connection: close",
    ].join("\r\n");
    const list = await rawSocketRequest(`GET /v1/balances HTTP/1.1\r\n${headers}\r\n\r\n`);
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toMatch(/^application\/json/);
    expect(list.json).toMatchObject({ object: "list" });
    const unknown = await rawSocketRequest(`GET /v1/nothing HTTP/1.1\r\n${headers}\r\n\r\n`);
    expectError(unknown, "not_found", 404, null);
    const action = await rawSocketRequest(
      `POST /v1/payments HTTP/1.1\r\n${headers}\r\nNext-Action: 00aa\r\n` +
        `Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expectError(action, "invalid_request_error", 400, "amount");
  });
});

describe("NUL characters and unpaired surrogates in queries and bodies", () => {
  const queries: [...Case, path: string][] = [
    ["NUL in starting_after", 400, "invalid_request_error", "starting_after", "/v1/payments?starting_after=pay_%00"],
    ["NUL in limit", 400, "invalid_request_error", "limit", "/v1/payments?limit=1%00"],
    ["NUL in a query key", 400, "invalid_request_error", "a\\u0000", "/v1/payments?a%00=1"],
    [
      "attempt cursor beyond bigint",
      400,
      "invalid_request_error",
      "starting_after",
      "/v1/webhooks/we_x/attempts?starting_after=wha_9223372036854775808",
    ],
    [
      "attempt cursor of 20 digits",
      400,
      "invalid_request_error",
      "starting_after",
      "/v1/events/evt_x/attempts?starting_after=wha_99999999999999999999",
    ],
    [
      "attempt cursor that is not one",
      400,
      "invalid_request_error",
      "starting_after",
      "/v1/events/evt_x/attempts?starting_after=wha_1e3",
    ],
  ];
  it.each(queries)("%s", async (_name, status, type, param, path) => {
    expectError(await api("GET", path, { key: m.sandboxKey }), type, status, param);
  });

  // Raw JSON text, so the escapes reach the server exactly as a client could send them.
  const bodies: [...Case, path: string, json: string][] = [
    [
      "\\u0000 in description",
      400,
      "invalid_request_error",
      "description",
      "/v1/payments",
      '{"amount":"1.000000","description":"a\\u0000b"}',
    ],
    [
      "unpaired high surrogate in description",
      400,
      "invalid_request_error",
      "description",
      "/v1/payments",
      '{"amount":"1.000000","description":"a\\ud800"}',
    ],
    [
      "unpaired low surrogate in description",
      400,
      "invalid_request_error",
      "description",
      "/v1/payment-links",
      '{"amount":"1","description":"\\udc00b"}',
    ],
    [
      "\\u0000 in a metadata value",
      400,
      "invalid_request_error",
      "metadata.order",
      "/v1/payments",
      '{"amount":"1.000000","metadata":{"order":"x\\u0000"}}',
    ],
    [
      "unpaired surrogate in a metadata value",
      400,
      "invalid_request_error",
      "metadata.order",
      "/v1/payments",
      '{"amount":"1.000000","metadata":{"order":"\\ud83d"}}',
    ],
    [
      "\\u0000 in a metadata key",
      400,
      "invalid_request_error",
      "metadata.a\\u0000b",
      "/v1/payments",
      '{"amount":"1.000000","metadata":{"a\\u0000b":"x"}}',
    ],
    [
      "\\u0000 in a payout address",
      400,
      "invalid_request_error",
      "to_address",
      "/v1/payouts",
      '{"chain":"eth","amount":"1.000000","to_address":"0x\\u0000"}',
    ],
    [
      "\\u0000 in a webhook URL",
      400,
      "invalid_request_error",
      "url",
      "/v1/webhooks",
      '{"url":"https://example.com/\\u0000","enabled_events":["payment.confirmed"]}',
    ],
    [
      "a body nested 5,000 levels deep",
      400,
      "invalid_request_error",
      "metadata",
      "/v1/payments",
      `{"amount":"1.000000","metadata":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    ],
    [
      "raw NUL byte inside a JSON string",
      400,
      "invalid_request_error",
      null,
      "/v1/payments",
      '{"amount":"1.000000","description":"a\u0000b"}',
    ],
  ];
  it.each(bodies)("%s", async (_name, status, type, param, path, json) => {
    const reply = await api("POST", path, {
      key: m.sandboxKey,
      rawBody: json,
      headers: { "content-type": "application/json" },
    });
    expectError(reply, type, status, param);
  });

  it("a paired surrogate (an emoji) is fine", async () => {
    const reply = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      rawBody: '{"amount":"1.000000","description":"\\ud83d\\ude00","metadata":{"k":"\\ud83d\\ude00"}}',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.description).toBe("😀");
  });

  it("a body starting with a byte-order mark is refused", async () => {
    const reply = await api("POST", "/v1/payments", {
      key: m.sandboxKey,
      rawBody: '\ufeff{"amount":"1.000000"}',
      headers: { "content-type": "application/json" },
    });
    expectError(reply, "invalid_request_error", 400, null);
  });
});

describe("methods", () => {
  const cases: [...Case, method: string, path: string, allow: string | null][] = [
    ["TRACE on a known path", 405, "invalid_request_error", null, "TRACE", "/v1/payments", "GET, POST"],
    ["PROPFIND on a known path", 405, "invalid_request_error", null, "PROPFIND", "/v1/payments/pay_x", "GET"],
    ["PURGE on a known path", 405, "invalid_request_error", null, "PURGE", "/v1/balances", "GET"],
    ["MKCOL on a known path", 405, "invalid_request_error", null, "MKCOL", "/v1/webhooks", "GET, POST"],
    ["OPTIONS on a known path", 405, "invalid_request_error", null, "OPTIONS", "/v1/payments", "GET, POST"],
    ["PUT on a known path", 405, "invalid_request_error", null, "PUT", "/v1/payments", "GET, POST"],
    ["TRACE on an unknown path", 404, "not_found", null, "TRACE", "/v1/nothing/here", null],
    ["PROPFIND on an unknown path", 404, "not_found", null, "PROPFIND", "/v1/nothing", null],
  ];
  it.each(cases)("%s", async (_name, status, type, param, method, path, allow) => {
    const reply = asApiReply(await rawRequest(webUrls()[0]!, path, { method, key: m.sandboxKey }));
    expectError(reply, type, status, param);
    expect(reply.headers.get("allow")).toBe(allow);
  });

  it.each([
    ["a lowercase method", "get /v1/payments HTTP/1.1", 405],
    ["CONNECT", "CONNECT example.com:443 HTTP/1.1", 405],
    ["a raw NUL in the request line", "GET /v1/pay\u0000ments HTTP/1.1", 400],
  ] as const)("%s, which Node's parser refuses, still gets the envelope", async (_name, line, status) => {
    const reply = await rawSocketRequest(`${line}\r\nHost: x\r\n\r\n`);
    expectError(reply, "invalid_request_error", status, null);
    if (status === 405) expect(reply.headers.get("allow")).toMatch(/^GET, HEAD, POST/);
  });
});

function asApiReply(reply: { status: number; headers: Record<string, unknown>; text: string }): ApiReply {
  const headers = new Headers();
  for (const [k, v] of Object.entries(reply.headers)) if (typeof v === "string") headers.set(k, v);
  let json: unknown;
  try {
    json = JSON.parse(reply.text);
  } catch {
    /* not JSON */
  }
  return { status: reply.status, headers, text: reply.text, json };
}

/** Bytes straight onto a socket: for requests no HTTP client would send. */
function rawSocketRequest(bytes: string): Promise<ApiReply> {
  const url = new URL(webUrls()[0]!);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(bytes));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (d) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head, body = ""] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = head!.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(":");
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const text_ = /chunked/i.test(headers["transfer-encoding"] ?? "") ? dechunk(body) : body;
      resolve(asApiReply({ status: Number(statusLine!.split(" ")[1]), headers, text: text_ }));
    });
  });
}

/** A chunked body's content (ASCII bodies only, which is all these tests read). */
function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
