import type { Mode } from "@/lib/kernel/mode";
import { decryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import { privateUrlsAllowed, type Resolver } from "./check-webhook-url";
import { WEBHOOK_SECRET_PURPOSE } from "./create-webhook-endpoint";
import { type AttemptResult, sendWebhook } from "./send-webhook";

/** The endpoint's signing secret, decrypted from its row. */
export function endpointSecret(encryptedSecret: string): string {
  return decryptSecret(masterKey(), encryptedSecret, WEBHOOK_SECRET_PURPOSE).toString("utf8");
}

/**
 * One signed POST of an event's body to an endpoint, as deliveries and replays make it: signed with the
 * endpoint's secret, under the URL rule of the endpoint's mode (private addresses only in sandbox, when
 * allowed).
 */
export function sendToEndpoint(
  endpoint: { url: string; encryptedSecret: string; mode: Mode },
  body: string,
  opts: { resolve?: Resolver } = {},
): Promise<AttemptResult> {
  return sendWebhook({
    url: endpoint.url,
    body,
    secret: endpointSecret(endpoint.encryptedSecret),
    allowPrivate: privateUrlsAllowed(endpoint.mode),
    resolve: opts.resolve,
  });
}
