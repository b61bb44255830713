import { expect } from "vitest";
import { api, type TestMerchant } from "@/tests/helpers/api";

/** POST /v1/payments as the merchant's server would; fails the test on anything but 200. */
export async function createPayment(m: TestMerchant, body: Record<string, unknown>): Promise<any> {
  const reply = await api("POST", "/v1/payments", { key: m.sandboxKey, body });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

export async function getPayment(m: TestMerchant, id: string): Promise<any> {
  const reply = await api("GET", `/v1/payments/${id}`, { key: m.sandboxKey });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

/** Mines sandbox blocks at once, to skip the long confirmation depths of tron (19) and solana (32). */
export async function mine(m: TestMerchant, chain: string, blocks: number): Promise<void> {
  const reply = await api("POST", `/v1/sandbox/chains/${chain}/mine`, { key: m.sandboxKey, body: { blocks } });
  expect(reply.status, reply.text).toBe(200);
}

/** The hosted checkout's path for a payment. */
export const checkoutPath = (id: string) => `/checkout/${id}`;

/** One JSON-RPC call to a sandbox EVM node (anvil). */
export async function evmRpc(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const reply = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}
