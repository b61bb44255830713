import { createHash, createHmac } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { signPayload } from "@/lib/notify/webhooks/sign-payload";
import { config } from "@/lib/platform/config/env";

/**
 * The local signing secret: derived from the API key, so every `listen` with the same key prints the same
 * whsec_ (the receiver's configuration survives a restart) and it reveals nothing of the key.
 */
export const listenSecret = (apiKey: string): string =>
  `whsec_${createHmac("sha256", apiKey).update("usdt-payments listen: local signing secret").digest("base64url")}`;

/**
 * Where the last forwarded event of one (service, key) is kept, so that a restarted `listen` resumes after it
 * ($XDG_STATE_HOME or ~/.local/state). The file is named by a hash: the key itself is never written.
 */
export function listenPosition(baseUrl: string, apiKey: string) {
  const dir = config().cliStateDir;
  const name = createHash("sha256").update(`${baseUrl}\n${apiKey}`).digest("hex").slice(0, 16);
  const file = path.join(dir, `listen-${name}.json`);
  return {
    file,
    load(): string | undefined {
      try {
        const saved = JSON.parse(readFileSync(file, "utf8")) as { last_event_id?: unknown };
        return typeof saved.last_event_id === "string" ? saved.last_event_id : undefined;
      } catch {
        return undefined;
      }
    },
    /** Written whole then renamed: a kill mid-write leaves the previous position, never half a file. */
    save(eventId: string) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(`${file}.tmp`, JSON.stringify({ last_event_id: eventId }), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
  };
}

export type Forwarded = { status: number } | { error: string };

/**
 * One POST of the event's exact bytes to the local receiver, signed as a delivery is. The same value goes
 * under Stripe-Signature too, whose scheme (t=…,v1=HMAC-SHA256 of "t.body") it is: a receiver written for
 * stripe-node's constructEvent verifies it as well.
 */
export async function forwardEvent(url: string, secret: string, body: string): Promise<Forwarded> {
  const signature = signPayload(secret, body, Math.floor(Date.now() / 1000));
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "usdt-payments-listen/1",
        "service-signature": signature,
        "stripe-signature": signature,
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { error: (err as Error).name === "TimeoutError" ? "timed out after 10 s" : (cause?.code ?? String(err)) };
  }
}
