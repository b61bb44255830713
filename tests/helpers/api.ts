import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { getDb } from "@/lib/platform/db/client";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import type { Scope } from "@/lib/identity/api-keys/scopes";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { checkAgainstOpenApi } from "./openapi-contract";

export const webUrls = () => inject("webUrls");

export interface ApiCall {
  key?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Index of the web instance to call (0 or 1). */
  server?: number;
}

export interface ApiReply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/**
 * A POST as the SDK sends it: one Idempotency-Key, and the documented busy answer (a 500 with Retry-After: no
 * database connection free in time) sent again after the wait it asks, up to five times.
 */
export async function postRetryingBusy(path: string, call: ApiCall): Promise<ApiReply> {
  const headers = { ...call.headers, "Idempotency-Key": randomUUID() };
  for (let attempt = 1; ; attempt++) {
    const reply = await api("POST", path, { ...call, headers });
    const retryAfter = reply.status === 500 ? reply.headers.get("retry-after") : null;
    if (retryAfter === null || attempt === 5) return reply;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(retryAfter)));
  }
}

/**
 * One HTTP request to a real web instance, as a merchant's client would send it. Every /v1 answer is
 * checked against the OpenAPI document (openapi-contract.ts): a mismatch fails the calling test.
 */
export async function api(method: string, path: string, call: ApiCall = {}): Promise<ApiReply> {
  const headers: Record<string, string> = { ...(call.headers ?? {}) };
  if (call.key) headers.authorization = `Bearer ${call.key}`;
  let body: string | undefined = call.rawBody;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers["content-type"] ??= "application/json";
  }
  const url = `${webUrls()[call.server ?? 0]}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  checkAgainstOpenApi(method, url, res.status, res.headers, text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface TestMerchant {
  id: string;
  sandboxKey: string;
  liveKey: string;
  sandboxKeyId: string;
  liveKeyId: string;
}

/**
 * A merchant with a sandbox and a live key. Its sandbox key also holds `sandbox:chains` (the suite is the
 * operator of its chains) unless `sandboxChains: false`: a key as a merchant would have it.
 */
export async function newMerchant(
  name = "Test merchant",
  opts: { sandboxChains?: boolean } = {},
): Promise<TestMerchant> {
  const sandboxChains = opts.sandboxChains ?? true;
  const { merchant, keys } = await createMerchant(getDb(), { name, email: "owner@example.com", sandboxChains });
  const sandbox = keys.find((k) => k.mode === "sandbox")!;
  const live = keys.find((k) => k.mode === "live")!;
  return {
    id: merchant.id,
    sandboxKey: sandbox.secret,
    liveKey: live.secret,
    sandboxKeyId: sandbox.id,
    liveKeyId: live.id,
  };
}

export async function newKey(merchantId: string, mode: "sandbox" | "live", scopes?: Scope[]) {
  return createApiKey(getDb(), { merchantId, mode, scopes });
}

/** Asserts the API's error envelope and returns it. */
export function expectError(reply: ApiReply, type: string, status: number, param: string | null = null) {
  const err = reply.json?.error;
  if (!err || err.type !== type || err.status !== status || reply.status !== status || err.param !== param) {
    throw new Error(`expected ${status} ${type} (param ${param}), got ${reply.status}: ${reply.text}`);
  }
  if (typeof err.message !== "string" || err.message.length === 0) throw new Error("error.message missing");
  if (!/^req_[0-9A-Za-z]{20}$/.test(err.request_id) || reply.headers.get("request-id") !== err.request_id) {
    throw new Error(`request_id missing or not matching the Request-Id header: ${reply.text}`);
  }
  if (reply.headers.get("x-api-version") !== "1") throw new Error("X-API-Version header missing");
  return err as { type: string; message: string; status: number; param: string | null; request_id: string };
}

/**
 * The key is refused (401 unauthorized) by web server `server` within the time the key's change notification
 * takes to reach that process (well under a second), not after the five seconds an instance may keep a verified
 * key without hearing of a change (lib/identity/api-keys/verified-key-cache.ts). The change commits in another
 * process (the test's, the CLI's), so a request sent at once can reach the server before its notification does.
 */
export async function expectRefusedWithin(key: string, { path = "/v1/balances", server = 0, boundMs = 1_000 } = {}) {
  const start = Date.now();
  for (;;) {
    const reply = await api("GET", path, { key, server });
    if (reply.status === 401) return expectError(reply, "unauthorized", 401);
    if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status}, expected 200 until refused (401)`);
    if (Date.now() - start > boundMs) throw new Error(`server ${server} still accepts the key after ${boundMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
