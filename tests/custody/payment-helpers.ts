import { expect } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { api, type TestMerchant } from "../helpers/api";
import { watchPayment } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";

/**
 * A payment paid in full from a sandbox wallet (POST /v1/sandbox/payments/:id/simulate) and watched until
 * `confirmed` by the file's watcher; returns its deposit address.
 */
export async function paidPayment(m: TestMerchant, chain: Chain, amount: string, timeoutMs = 60_000): Promise<string> {
  const created = await api("POST", "/v1/payments", { key: m.sandboxKey, body: { amount, chain } });
  expect(created.status, created.text).toBe(200);
  const paid = await api("POST", `/v1/sandbox/payments/${created.json.id}/simulate`, { key: m.sandboxKey, body: {} });
  expect(paid.status, paid.text).toBe(200);
  await watchPayment(m.id, created.json.id, (p) => p.status === "confirmed", timeoutMs);
  return created.json.deposit_address as string;
}

/** The sweep intents recorded for a deposit address. */
export function sweepsOf(address: string) {
  return query<{
    id: string;
    status: string;
    raw_amount: string;
    after_id: string | null;
    options: Record<string, unknown>;
  }>(
    getDb(),
    "select id, status, raw_amount::text, after_id, options from outbound_transactions where purpose = 'sweep' and from_address = $1",
    [address],
  );
}

/**
 * `reconcile --chain` as the operator runs it: the chain's gaps (what the chain holds beyond the books, and
 * beyond what merchants are owed) and its alerts. The books' own breakdown moves with every sweep.
 */
export async function reconcileChain(chain: Chain) {
  const run = await runCli(["reconcile", "--mode", "sandbox", "--chain", chain, "--json"], process.env);
  const [report] = JSON.parse(run.stdout).chains as {
    usdt: { unmatched: string; difference: string };
    alerts: string[];
  }[];
  return { unmatched: report!.usdt.unmatched, difference: report!.usdt.difference, alerts: report!.alerts };
}
