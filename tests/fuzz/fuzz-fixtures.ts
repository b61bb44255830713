import path from "node:path";
import { getDb } from "@/lib/platform/db/client";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { DEFAULT_SCOPES, type Scope } from "@/lib/identity/api-keys/scopes";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { spawnWebServer, type SpawnedWebServer } from "@/scripts/lib/spawn-web";
import type { FuzzKey, FuzzMerchant } from "./api-requests";

/** Sandbox keys per merchant: enough that the 60/min (10/min for payouts) per-key limits rarely bite. */
const SANDBOX_KEYS = 70;
const LIVE_KEYS = 6;
const RESTRICTED: Scope[][] = [
  ["payments:read"],
  ["webhooks:read"],
  ["events:read"],
  ["balances:read", "payouts:read"],
  ["payment_links:write"],
];

/**
 * A web instance of its own for the fuzzer: TRUST_PROXY on, so every request can come from its own
 * client address (X-Forwarded-For) and the public pages' per-IP limit is measured per variant.
 */
export async function startFuzzServer(): Promise<SpawnedWebServer> {
  const root = path.resolve(import.meta.dirname, "../..");
  return spawnWebServer(root, {
    DATABASE_URL: process.env.DATABASE_URL!,
    MASTER_KEY: process.env.MASTER_KEY!,
    REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX!,
    WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
    DATA_DIR: path.join(root, ".data", "test"),
    LOG_LEVEL: "error",
    TRUST_PROXY: "true",
  });
}

export interface PageTargets {
  checkout: string;
  pay: string;
  events: string;
}

/** Merchants with many keys each, a few objects of every kind to address by id, and the first one's pages. */
export async function createFuzzMerchants(
  baseUrl: string,
  count: number,
): Promise<{ merchants: FuzzMerchant[]; pages: PageTargets }> {
  const merchants: FuzzMerchant[] = [];
  let pages: PageTargets | undefined;
  for (let i = 0; i < count; i++) {
    const { merchant, keys: initial } = await createMerchant(getDb(), { name: `Fuzz ${i}`, email: "fuzz@example.com" });
    const keys: FuzzKey[] = initial.map((k) => ({ secret: k.secret, mode: k.mode, scopes: DEFAULT_SCOPES }));
    const make = async (mode: "sandbox" | "live", scopes?: Scope[]) => {
      const key = await createApiKey(getDb(), { merchantId: merchant.id, mode, scopes });
      keys.push({ secret: key.secret, mode, scopes: scopes ?? DEFAULT_SCOPES });
    };
    for (let k = 0; k < SANDBOX_KEYS; k++) await make("sandbox");
    for (let k = 0; k < LIVE_KEYS; k++) await make("live");
    for (const scopes of RESTRICTED) await make("sandbox", scopes);
    const sandboxKey = initial.find((k) => k.mode === "sandbox")!.secret;
    const { ids, linkToken } = await createObjects(baseUrl, sandboxKey);
    merchants.push({ keys, ids });
    pages ??= {
      checkout: `/checkout/${ids.payment[0]}`,
      pay: `/pay/${linkToken}`,
      events: `/api/public/checkout/${ids.payment[0]}/events`,
    };
  }
  return { merchants, pages: pages! };
}

async function createObjects(baseUrl: string, key: string): Promise<{ ids: FuzzMerchant["ids"]; linkToken: string }> {
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "x-forwarded-for": "198.19.255.255",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`fixture ${method} ${p} failed: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const payments = [
    await call("POST", "/v1/payments", { amount: "10.000000", chain: "eth" }),
    await call("POST", "/v1/payments", { amount: "2.500000", chain: "solana", metadata: { order: "fuzz" } }),
  ];
  const link = await call("POST", "/v1/payment-links", { amount: "5" });
  const webhook = await call("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/fuzz" });
  const customers = [
    await call("POST", "/v1/customers", { name: "Fuzz", reference: "fuzz-1" }),
    await call("POST", "/v1/customers", { email: "fuzz@example.com" }),
    await call("POST", "/v1/customers", {}),
  ];
  const addresses = [
    await call("POST", "/v1/deposit_addresses", { chain: "eth", customer: customers[0]!.id }),
    await call("POST", "/v1/deposit_addresses", { chain: "solana" }),
  ];
  const events = (await call("GET", "/v1/events?limit=3")).data as { id: string }[];
  const ids = {
    payment: payments.map((p) => p.id as string),
    link: [link.id as string],
    event: events.map((e) => e.id),
    payout: [],
    refund: [],
    customer: customers.map((c) => c.id as string),
    deposit_address: addresses.map((a) => a.id as string),
    deposit: [],
    webhook: [webhook.id as string],
  };
  return { ids, linkToken: new URL(link.url as string).pathname.split("/").pop()! };
}
