import { ERROR_STATUS } from "@/lib/http/api/errors";
import type { RawResponse } from "./raw-http";

const ENVELOPE_FIELDS = ["message", "param", "request_id", "status", "type"];

/** What every response of the service must carry, whatever was asked. */
export function commonProblems(res: RawResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.headers["x-api-version"] !== "1") problems.push("no X-API-Version: 1");
  if (!/^req_[0-9A-Za-z]{20}$/.test(res.headers["request-id"] ?? "")) problems.push("no Request-Id");
  const json = parseJson(res);
  // Any JSON error body, wherever it comes from, is the API's envelope.
  if (json && typeof json === "object" && "error" in json) problems.push(...envelopeProblems(res, json));
  return problems;
}

/** A /v1 response: JSON always (but to HEAD), the full envelope on every error. */
export function apiProblems(res: RawResponse, method: string): string[] {
  const problems = commonProblems(res);
  // A client that follows a redirect re-sends its request, key and body to a path it did not choose.
  if (res.status >= 300 && res.status < 400) problems.push(`redirect ${res.status} on /v1`);
  if (method.toUpperCase() === "HEAD" || res.status === 204 || (res.status >= 300 && res.status < 400)) return problems;
  if (!/^application\/json/i.test(res.headers["content-type"] ?? "")) {
    problems.push(`Content-Type ${res.headers["content-type"] ?? "missing"}, not JSON`);
    return problems;
  }
  const json = parseJson(res);
  if (json === undefined) problems.push("body is not JSON");
  else if (res.status >= 400 && !(json && typeof json === "object" && "error" in json))
    problems.push("error without an envelope");
  else if (res.status < 300 && (json === null || typeof json !== "object")) problems.push("2xx body not an object");
  return problems;
}

function envelopeProblems(res: RawResponse, json: object): string[] {
  const problems: string[] = [];
  if (Object.keys(json).join() !== "error") problems.push("envelope has keys besides error");
  const err = (json as { error: unknown }).error as Record<string, unknown> | null;
  if (!err || typeof err !== "object") return [...problems, "error is not an object"];
  const fields = Object.keys(err).sort().join();
  if (fields !== ENVELOPE_FIELDS.join()) problems.push(`envelope fields ${fields}`);
  const type = err.type as keyof typeof ERROR_STATUS;
  if (!(type in ERROR_STATUS)) problems.push(`type ${String(type)} not one of the nine`);
  else {
    const statusOk = err.status === ERROR_STATUS[type] || (err.status === 405 && type === "invalid_request_error");
    if (!statusOk) problems.push(`type ${type} with status ${String(err.status)}`);
  }
  if (err.status !== res.status) problems.push(`error.status ${String(err.status)} but HTTP ${res.status}`);
  if (typeof err.message !== "string" || err.message.length === 0) problems.push("no message");
  if (err.param !== null && typeof err.param !== "string") problems.push("param neither string nor null");
  if (err.request_id !== res.headers["request-id"]) problems.push("request_id differs from Request-Id");
  return problems;
}

const SECURITY_HEADERS: [string, RegExp][] = [
  ["content-security-policy", /script-src [^;]*'nonce-[A-Za-z0-9+/=]{16,}'/],
  ["x-frame-options", /^DENY$/],
  ["x-content-type-options", /^nosniff$/],
  ["referrer-policy", /^no-referrer$/],
  ["cross-origin-opener-policy", /^same-origin$/],
  ["cache-control", /no-store/],
];

/** A public page (or its event stream) that was served: the headers lib/http/server/page-security.ts sets. */
export function pageSecurityProblems(res: RawResponse): string[] {
  return SECURITY_HEADERS.filter(([name, pattern]) => !pattern.test(res.headers[name] ?? "")).map(
    ([name]) => `page served without ${name}`,
  );
}

export function parseJson(res: RawResponse): unknown {
  if (res.streamed || res.body.length === 0) return undefined;
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    return undefined;
  }
}
