import { sleep } from "@/lib/kernel/sleep";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";
import { config } from "@/lib/platform/config/env";
import { type Command, required, UsageError } from "./cli-flags";
import type { CommandSpec } from "./command-specs";
import { forwardEvent, listenPosition, listenSecret } from "./listen-forwarding";
import { readEventStream } from "./read-event-stream";
import { refusal, ServiceError, unreachable } from "./service-api";

export const LISTEN_SPEC: CommandSpec = {
  summary: "forward your events to a local URL as they happen, signed with a local secret (as stripe listen does)",
  options: [
    {
      flags: "--forward-to <url>",
      description: "where to POST each event, e.g. http://localhost:4000/webhooks",
      required: true,
    },
    { flags: "--events <list>", description: "only these event types, comma-separated (default: every type)" },
    { flags: "--api-key <key>", description: "an API key with events:read", required: true, env: "USDT_API_KEY" },
    {
      flags: "--base-url <url>",
      description: "the service's address (default: PUBLIC_BASE_URL, or http://localhost:$PORT)",
      env: "USDT_BASE_URL",
    },
    { flags: "--from-now", description: "start with new events, not after the last one this key's listen forwarded" },
  ],
  withoutDatabase: true,
  more: [
    "Prints a webhook signing secret (whsec_…, the same for every listen with",
    "this key): verify the forwarded events with it, as you would a real",
    "endpoint's (service-signature, and Stripe-Signature for stripe-node).",
    "One line per event with your receiver's answer. Restarted, listen",
    "resumes after the last event it forwarded (GET /v1/events/stream with",
    "Last-Event-ID); it forwards each event once, or twice if killed between",
    "forwarding one and recording it. Ctrl-C stops it.",
  ].join("\n"),
};

function readFlags(flags: Parameters<Command>[1]) {
  const forwardTo = required(flags, "forward-to");
  if (!/^https?:\/\/[^/]/.test(forwardTo) || !URL.canParse(forwardTo))
    throw new UsageError(`--forward-to must be an http(s) URL, got "${forwardTo}"`);
  const events = typeof flags.events === "string" ? flags.events.split(",").map((t) => t.trim()) : null;
  const unknown = events?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown !== undefined) throw new UsageError(`--events: unknown type "${unknown}": ${EVENT_TYPES.join(", ")}`);
  const baseUrl = (typeof flags["base-url"] === "string" ? flags["base-url"] : config().publicBaseUrl).replace(
    /\/+$/,
    "",
  );
  return { forwardTo, events, apiKey: required(flags, "api-key"), baseUrl, fromNow: flags["from-now"] === true };
}

/** One connection to the stream: its events, or the service's refusal (status and message). */
async function connect(
  baseUrl: string,
  apiKey: string,
  events: string[] | null,
  after: string | undefined,
  signal: AbortSignal,
) {
  const query = events ? `?types=${encodeURIComponent(events.join(","))}` : "";
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/v1/events/stream${query}`, {
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: "text/event-stream",
        ...(after ? { "last-event-id": after } : {}),
      },
      signal,
    });
  } catch (err) {
    throw unreachable(baseUrl, err);
  }
  if (res.ok && res.body) return readEventStream(res.body);
  const answer = (await res.json().catch(() => ({}))) as { error?: { message?: string; param?: string | null } };
  throw refusal("GET", "/v1/events/stream", res.status, answer.error);
}

/** The id of the payment or payout an event is about, for the line people read. */
function objectIdOf(data: string): string {
  try {
    return String((JSON.parse(data) as { data?: { object?: { id?: unknown } } }).data?.object?.id ?? "");
  } catch {
    return "";
  }
}

export const LISTEN_COMMANDS: Record<string, Command> = {
  async listen(_db, flags, context) {
    const { forwardTo, events, apiKey, baseUrl, fromNow } = readFlags(flags);
    const secret = listenSecret(apiKey);
    const position = listenPosition(baseUrl, apiKey);
    let lastId = fromNow ? undefined : position.load();
    const stop = new AbortController();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());

    let connected = false;
    let delayMs = 1_000;
    while (!stop.signal.aborted) {
      let stream: AsyncGenerator<{ id?: string; data: string; event: string }>;
      try {
        stream = await connect(baseUrl, apiKey, events, lastId, stop.signal);
      } catch (err) {
        if (stop.signal.aborted) break;
        const refused = err instanceof ServiceError ? err : new ServiceError(String(err));
        if (refused.param === "Last-Event-ID" && !fromNow) {
          // The saved event is not the service's (a reset sandbox database): say so, and start from now.
          context.progress(`the service does not know ${lastId} (reset?): starting with new events`, {
            warning: "unknown_last_event_id",
            last_event_id: lastId,
          });
          lastId = undefined;
          continue;
        }
        // Before the first connection every refusal ends the command; after it, only a refusal of the key.
        if (!connected || refused.status === 401 || refused.status === 403) throw refused;
        context.progress(`${refused.message}: reconnecting in ${delayMs / 1000} s`, { reconnecting: refused.message });
        await sleep(delayMs, stop.signal);
        delayMs = Math.min(delayMs * 2, 30_000);
        continue;
      }
      if (!connected) {
        connected = true;
        const mode = apiKey.startsWith("mnt_live_") ? "live" : "sandbox";
        context.progress(
          `Ready! Forwarding ${mode} events to ${forwardTo}${lastId ? ` (resuming after ${lastId})` : ""}. ` +
            `Your webhook signing secret is ${secret} (Ctrl-C to stop)`,
          { ready: true, mode, forward_to: forwardTo, secret, resumed_after: lastId ?? null },
        );
      }
      delayMs = 1_000;
      try {
        for await (const frame of stream) {
          if (!frame.id) continue;
          const forwarded = await forwardEvent(forwardTo, secret, frame.data);
          lastId = frame.id;
          position.save(lastId);
          const outcome = "status" in forwarded ? `[${forwarded.status}]` : `failed: ${forwarded.error}`;
          const time = new Date().toISOString().slice(11, 19);
          const about = `${frame.event.padEnd(24)} ${objectIdOf(frame.data)}  ${frame.id}`;
          context.progress(`${time}  ${about}  --> ${outcome} POST ${forwardTo}`, {
            event: { id: frame.id, type: frame.event },
            forwarded: { url: forwardTo, ...forwarded },
          });
        }
      } catch {
        // The connection dropped mid-stream; the next one resumes after the last event forwarded.
      }
      // The server ends each stream after a while (or at once when it is in trouble): reconnect, not in a spin.
      await sleep(1_000, stop.signal);
    }
    return { text: ["stopped"], json: { stopped: true, last_event_id: lastId ?? null } };
  },
};
