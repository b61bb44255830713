import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import tls from "node:tls";
import net from "node:net";
import type { LookupFunction } from "node:net";
import { type AppConfig, config } from "@/lib/platform/config/env";
import { checkWebhookUrl, type Resolver } from "./check-webhook-url";
import { responseExcerpt } from "./response-excerpt";
import { signPayload } from "./sign-payload";
import { keptAlive } from "./webhook-connections";

export const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

let extraCa: { file: string; ca: string[] } | undefined;

/**
 * WEBHOOKS_CA_FILE: extra PEM certificates to trust for webhook TLS, in addition to the system roots
 * (receivers behind a private CA in development). Read once per file path.
 */
function trustedCas(cfg: AppConfig = config()): string[] | undefined {
  const file = cfg.webhooksCaFile;
  if (!file) return undefined;
  if (extraCa?.file !== file) extraCa = { file, ca: [...tls.rootCertificates, fs.readFileSync(file, "utf8")] };
  return extraCa.ca;
}

export interface AttemptResult {
  success: boolean;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  durationMs: number;
  startedAt: Date;
}

/**
 * One signed POST of `body` to `rawUrl`. SSRF-safe at send time: the host is resolved and vetted again and
 * the socket connects to the vetted address (a `lookup` that returns only it, so no second DNS answer can
 * slip in), TLS still verifies the certificate for the URL's host name, redirects are never followed (a 3xx
 * is a failure), the response is read up to 64 KiB, and the whole exchange has 10 seconds.
 */
export async function sendWebhook(input: {
  url: string;
  body: string;
  secret: string;
  allowPrivate: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "durationMs" | "startedAt">): AttemptResult => ({
    ...r,
    startedAt,
    durationMs: Math.round(performance.now() - started),
  });

  const checked = await checkWebhookUrl(input.url, { allowPrivate: input.allowPrivate, resolve: input.resolve });
  if (!checked.ok)
    return done({ success: false, statusCode: null, error: `refused: ${checked.message}`, responseBody: null });
  const { url, addresses } = checked.value;
  const pinned = addresses[0]!;
  const family = net.isIP(pinned);
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: pinned, family },
      ]);
    else callback(null, pinned, family);
  };

  const signature = signPayload(input.secret, input.body, Math.floor(Date.now() / 1000));
  const timeoutMs = input.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const request = { url, lookup, body: input.body, signature, deadline: Date.now() + timeoutMs, timeoutMs };
  const outcome = await post(request, keptAlive(url, pinned));
  // The endpoint closed a kept connection as this was written (before any answer): once more, on a new one
  // (which, never reused, cannot end that way).
  return done(outcome === "reused_connection_reset" ? ((await post(request, false)) as Outcome) : outcome);
}

type Outcome = Omit<AttemptResult, "durationMs" | "startedAt">;

interface PostRequest {
  url: URL;
  lookup: LookupFunction;
  body: string;
  signature: string;
  /** When the whole send (a retry included) must have its answer. */
  deadline: number;
  timeoutMs: number;
}

function post(
  { url, lookup, body, signature, deadline, timeoutMs }: PostRequest,
  agent: http.Agent | false,
): Promise<Outcome | "reused_connection_reset"> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Outcome | "reused_connection_reset") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: "POST",
        lookup,
        agent,
        ...(url.protocol === "https:" ? { ca: trustedCas() } : {}),
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          "service-signature": signature,
          "User-Agent": "usdt-payments-webhooks/1",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
          else res.destroy();
        });
        const end = () => {
          const status = res.statusCode ?? 0;
          const text = responseExcerpt(Buffer.concat(chunks));
          finish({ success: status >= 200 && status < 300, statusCode: status, error: null, responseBody: text });
        };
        res.on("end", end);
        res.on("close", end);
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no response within ${timeoutMs / 1000} s`)),
      Math.max(deadline - Date.now(), 0),
    );
    let answered = false;
    req.on("response", () => {
      answered = true;
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (req.reusedSocket && !answered && err.code === "ECONNRESET") finish("reused_connection_reset");
      else finish({ success: false, statusCode: null, error: err.message, responseBody: null });
    });
    req.end(body);
  });
}
