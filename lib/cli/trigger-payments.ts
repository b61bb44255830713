import type { Chain } from "@/lib/chains/chains";
import { type ServiceApi, ServiceError } from "./service-api";

/** One trigger's run: the API with the merchant's key, the sandbox chain it drives, and its progress lines. */
export interface TriggerRun {
  api: ServiceApi;
  chain: Chain;
  step(text: string, json: Record<string, unknown>): void;
}

/** The object whose change records the event. */
export interface Triggered {
  object: "payment" | "deposit" | "payout" | "refund";
  id: string;
}

/** The fields of the API's objects a trigger reads (docs/API.md). */
interface Payment {
  id: string;
  amount: string;
  chain: string;
  status: string;
  deposit_address: string | null;
  confirmations: number;
  expires_at: string;
}

interface SandboxChain {
  chain: string;
  confirmations_threshold: number;
  confirmations_required: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PAYMENT_ORDER = ["awaiting_payment", "pending", "confirming", "confirmed"];
const AMOUNT = "2.000000";

/** A payment on the run's chain, 2 USDT unless said otherwise. */
export async function createPayment(run: TriggerRun, extra: Record<string, unknown> = {}, amount = AMOUNT) {
  const body = { amount, chain: run.chain, description: "npm run cli -- trigger", ...extra };
  const payment = await run.api.post<Payment>("/v1/payments", body);
  run.step(`payment ${payment.id} created: ${payment.amount} USDT on ${payment.chain}, ${payment.status}`, {
    step: "payment_created",
    payment: payment.id,
    status: payment.status,
    deposit_address: payment.deposit_address,
  });
  return payment;
}

/** The chain's depths in the sandbox (GET /v1/sandbox/chains), which say how many blocks to mine. */
export async function depths(run: TriggerRun): Promise<{ threshold: number; required: number }> {
  const chains = await run.api.get<{ data: SandboxChain[] }>("/v1/sandbox/chains");
  const facts = chains.data.find((c) => c.chain === run.chain);
  if (!facts) throw new ServiceError(`the sandbox chain ${run.chain} is not running (GET /v1/sandbox/chains)`);
  return { threshold: facts.confirmations_threshold, required: facts.confirmations_required };
}

export async function mine(run: TriggerRun, blocks: number) {
  const mined = await run.api.post<{ head: number }>(`/v1/sandbox/chains/${run.chain}/mine`, { blocks });
  run.step(`mined ${blocks} block(s) on ${run.chain}: head ${mined.head}`, { step: "mined", blocks, head: mined.head });
}

/** Pays the payment through the sandbox helper, then mines until the watcher has moved it to `target`. */
export async function payUntil(run: TriggerRun, payment: Payment, target: string) {
  const { threshold, required } = await depths(run);
  const sent = await run.api.post<{ amount: string; from: string; tx_hash: string }>(
    `/v1/sandbox/payments/${payment.id}/simulate`,
    {},
  );
  run.step(`paid ${sent.amount} USDT from ${sent.from}: tx ${sent.tx_hash}`, { step: "paid", tx_hash: sent.tx_hash });
  const blocks = target === "confirmed" ? required : target === "confirming" ? threshold : 1;
  let status = payment.status;
  const deadline = Date.now() + 90_000;
  for (let i = 0; ; i++) {
    if (i % 3 === 0) await mine(run, blocks);
    await sleep(1_500); // ~50 requests a minute with the mining: under the default 60 a minute
    const now = await run.api.get<Payment>(`/v1/payments/${payment.id}`);
    if (now.status !== status) {
      status = now.status;
      run.step(`payment ${payment.id} is ${status} (${now.confirmations} confirmations)`, {
        step: "payment_status",
        payment: payment.id,
        status,
      });
    }
    if (PAYMENT_ORDER.indexOf(status) >= PAYMENT_ORDER.indexOf(target)) return now;
    if (!PAYMENT_ORDER.includes(status))
      throw new ServiceError(`payment ${payment.id} became ${status}, not ${target}`);
    if (Date.now() > deadline)
      throw new ServiceError(
        `payment ${payment.id} is still ${status} after 90 s: ` +
          `is a worker watching ${run.chain} running? (npm start runs one)`,
      );
  }
}

/**
 * The shortest expiry is 60 s and the watcher judges it on the chain's clock, which it never lets run ahead
 * of real time (mining into the future does not help): so this waits the minute, mining once it has passed.
 */
export async function expire(run: TriggerRun): Promise<Triggered> {
  const payment = await createPayment(run, { expires_in: 60 });
  const expiresAt = Date.parse(payment.expires_at);
  run.step(`waiting for ${payment.expires_at} (~60 s: the shortest expiry, on the chain's clock)`, {
    step: "waiting",
    until: payment.expires_at,
  });
  for (let i = 0; Date.now() < expiresAt + 90_000; i++) {
    await sleep(5_000);
    const now = await run.api.get<Payment>(`/v1/payments/${payment.id}`);
    if (now.status === "expired") {
      run.step(`payment ${payment.id} is expired`, { step: "payment_status", payment: payment.id, status: now.status });
      return { object: "payment", id: payment.id };
    }
    const left = Math.round((expiresAt - Date.now()) / 1000);
    if (left < 0)
      await mine(run, 1); // a block past expires_at, for the watcher to read
    else if (i % 3 === 0) run.step(`${left} s to go`, { step: "waiting", seconds_left: left });
  }
  throw new ServiceError(`payment ${payment.id} did not expire: is a worker watching ${run.chain} running?`);
}
