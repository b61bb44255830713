import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { CHAINS } from "@/lib/chains/chains";
import { freshAddress } from "@/lib/chains/addresses/fresh-address";
import { UsageError } from "./cli-flags";
import { ServiceError } from "./service-api";
import { createPayment, depths, mine, payUntil, sleep, type Triggered, type TriggerRun } from "./trigger-payments";

interface Payout {
  id: string;
  amount: string;
  status: string;
  tx_hash: string | null;
}

const PAYOUT_AMOUNT = "1.000000";

/** Funds the merchant's balance on the chain with a confirmed payment, pays out part of it, and follows it. */
export async function payOut(
  run: TriggerRun,
  to: string,
  target: "confirmed" | "failed" | "blocked",
): Promise<Triggered> {
  const payment = await createPayment(run);
  await payUntil(run, payment, "confirmed");
  const payout = await run.api.post<Payout>("/v1/payouts", { chain: run.chain, to_address: to, amount: PAYOUT_AMOUNT });
  run.step(`payout ${payout.id} created: ${payout.amount} USDT to ${to}, ${payout.status}`, {
    step: "payout_created",
    payout: payout.id,
    to_address: to,
    status: payout.status,
  });
  await followTransfer(run, { kind: "payout", path: `/v1/payouts/${payout.id}`, ...payout }, target, {
    ends: ["confirmed", "failed", "blocked", "review_required"],
    sending: "processing",
    // payouts have their own window of 10 requests a minute
    every: 6_500,
    held: { review_required: ": the merchant's payout policy holds it (payouts approve --payout …)" },
  });
  return { object: "payout", id: payout.id };
}

/** A transfer of the merchant's money (a payout, a refund) that the outbound engine sends: its API object. */
interface Followed {
  kind: "payout" | "refund";
  path: string;
  id: string;
  status: string;
}

/** Polls the object until `target`, mining the chain's depth while its transfer is on the way. */
export async function followTransfer(
  run: TriggerRun,
  object: Followed,
  target: string,
  how: { ends: string[]; sending: string; every: number; held?: Record<string, string> },
): Promise<void> {
  const { required } = await depths(run);
  let status = object.status;
  const deadline = Date.now() + 180_000;
  while (status !== target) {
    if (how.ends.includes(status))
      throw new ServiceError(`${object.kind} ${object.id} is ${status}, not ${target}${how.held?.[status] ?? ""}`);
    if (Date.now() > deadline)
      throw new ServiceError(
        `${object.kind} ${object.id} is still ${status} after 180 s: it needs a running worker (npm start runs one)`,
      );
    await sleep(how.every);
    if (status === how.sending) await mine(run, required);
    const now = await run.api.get<{ status: string; tx_hash: string | null }>(object.path);
    if (now.status !== status) {
      status = now.status;
      const tx = now.tx_hash ? `, tx ${now.tx_hash}` : "";
      run.step(`${object.kind} ${object.id} is ${status}${tx}`, {
        step: `${object.kind}_status`,
        [object.kind]: object.id,
        status,
      });
    }
  }
}

/** Chains whose USDT freeze the service reads before signing (chain-registry.ts `issuerFreeze`). */
const READS_FREEZE = CHAINS.filter((c) => CHAIN_SPECS[c].issuerFreeze !== null);
const REVERTS_FROZEN = CHAINS.filter((c) => CHAIN_SPECS[c].issuerFreeze === null);

/**
 * Freezes an address on the sandbox chain's USDT (it then refuses transfers to it): needs sandbox:chains. `ends`:
 * `failed` wants a transfer that fails on chain, so a chain whose freeze the service does not read first;
 * `blocked` wants the service to see the freeze before signing.
 */
export async function frozenAddress(run: TriggerRun, event: string, ends: "failed" | "blocked"): Promise<string> {
  const fits = ends === "failed" ? REVERTS_FROZEN : READS_FREEZE;
  if (!fits.includes(run.chain))
    throw new UsageError(
      ends === "failed"
        ? `${event} needs a transfer that fails on chain: on ${run.chain} the service sees the frozen destination ` +
            `before signing (that is ${event.replace("failed", "blocked")}); use --chain ${fits.join(" or ")}`
        : `${event} needs a chain whose USDT freeze the service reads before signing: --chain ${fits.join(", ")}`,
    );
  const to = freshAddress(run.chain);
  try {
    await run.api.post(`/v1/sandbox/chains/${run.chain}/freeze`, { address: to });
  } catch (err) {
    if (err instanceof ServiceError && err.status === 403)
      throw new ServiceError(
        `${event} freezes the destination, which needs a key with the sandbox:chains scope; create one with ` +
          "npm run cli -- keys create --merchant mer_… --mode sandbox --scopes " +
          "payments:write,payouts:write,refunds:write,events:read,sandbox:chains",
      );
    throw err;
  }
  run.step(`froze ${to} on ${run.chain}: the sandbox USDT refuses transfers to it`, { step: "frozen", address: to });
  return to;
}

/** A payout to an address the sandbox token refuses: its transfer reverts on chain (bnb, polygon). */
export async function payOutFrozen(run: TriggerRun): Promise<Triggered> {
  return payOut(run, await frozenAddress(run, "payout.failed", "failed"), "failed");
}

/** A payout to an address USDT's issuer froze, seen before signing (eth, tron, solana): blocked, nothing sent. */
export async function payOutBlocked(run: TriggerRun): Promise<Triggered> {
  return payOut(run, await frozenAddress(run, "payout.blocked", "blocked"), "blocked");
}
