import { createHash, randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import type { Chain } from "@/lib/chains/chains";
import { ServiceError } from "./service-api";
import { createPayment, depths, mine, payUntil, sleep, type Triggered, type TriggerRun } from "./trigger-payments";

interface Payout {
  id: string;
  amount: string;
  status: string;
  tx_hash: string | null;
}

const PAYOUT_AMOUNT = "1.000000";

/** An address nobody holds the key of, valid on the chain: a payout's fresh destination. */
export function freshAddress(chain: Chain): string {
  if (chain === "solana") return base58.encode(randomBytes(32));
  const hash = randomBytes(20);
  if (chain !== "tron") return `0x${hash.toString("hex")}`;
  const payload = Buffer.concat([Buffer.from([0x41]), hash]); // Tron's prefix, then base58check
  const check = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest();
  return base58.encode(Buffer.concat([payload, check.subarray(0, 4)]));
}

/** Funds the merchant's balance on the chain with a confirmed payment, pays out part of it, and follows it. */
export async function payOut(run: TriggerRun, to: string, target: "confirmed" | "failed"): Promise<Triggered> {
  const payment = await createPayment(run);
  await payUntil(run, payment, "confirmed");
  const payout = await run.api.post<Payout>("/v1/payouts", { chain: run.chain, to_address: to, amount: PAYOUT_AMOUNT });
  run.step(`payout ${payout.id} created: ${payout.amount} USDT to ${to}, ${payout.status}`, {
    step: "payout_created",
    payout: payout.id,
    to_address: to,
    status: payout.status,
  });
  const { required } = await depths(run);
  let status = payout.status;
  const deadline = Date.now() + 180_000;
  while (status !== target) {
    if (["confirmed", "failed", "blocked", "review_required"].includes(status))
      throw new ServiceError(
        `payout ${payout.id} is ${status}, not ${target}` +
          (status === "review_required" ? ": the merchant's payout policy holds it (payouts approve --payout …)" : ""),
      );
    if (Date.now() > deadline)
      throw new ServiceError(
        `payout ${payout.id} is still ${status} after 180 s: payouts need a running worker (npm start runs one)`,
      );
    await sleep(6_500); // payouts have their own window of 10 requests a minute
    if (status === "processing") await mine(run, required);
    const now = await run.api.get<Payout>(`/v1/payouts/${payout.id}`);
    if (now.status !== status) {
      status = now.status;
      const tx = now.tx_hash ? `, tx ${now.tx_hash}` : "";
      run.step(`payout ${payout.id} is ${status}${tx}`, { step: "payout_status", payout: payout.id, status });
    }
  }
  return { object: "payout", id: payout.id };
}

/** A payout to an address the sandbox token refuses: its transfer reverts on chain. */
export async function payOutFrozen(run: TriggerRun): Promise<Triggered> {
  const to = freshAddress(run.chain);
  try {
    await run.api.post(`/v1/sandbox/chains/${run.chain}/freeze`, { address: to });
  } catch (err) {
    if (err instanceof ServiceError && err.status === 403)
      throw new ServiceError(
        "payout.failed freezes the destination, which needs a key with the sandbox:chains scope; create one with " +
          "npm run cli -- keys create --merchant mer_… --mode sandbox --scopes payments:write,payouts:write,events:read,sandbox:chains",
      );
    throw err;
  }
  run.step(`froze ${to} on ${run.chain}: the sandbox USDT refuses transfers to it`, { step: "frozen", address: to });
  return payOut(run, to, "failed");
}
