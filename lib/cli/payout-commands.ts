import { isChain, type Chain } from "@/lib/chains/chains";
import type { Db } from "@/lib/platform/db/client";
import { parseAmount } from "@/lib/kernel/amount";
import { MODES, type Mode } from "@/lib/kernel/mode";
import { addDenied, listDenied, removeDenied } from "@/lib/money-out/destinations/deny-list";
import { importOfac } from "@/lib/money-out/destinations/import-ofac";
import { OfacFileError } from "@/lib/money-out/destinations/ofac-files";
import { getPayoutPolicy, serializePolicy, setPayoutPolicy } from "@/lib/money-out/payouts/payout-policy";
import { approvePayout, PayoutReviewError, rejectPayout } from "@/lib/money-out/payouts/review-payout";
import { serializePayout } from "@/lib/money-out/payouts/serialize-payout";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

type Command = (db: Db, flags: Flags) => Promise<CommandResult>;

function optionalChain(flags: Flags): Chain | null {
  const chain = typeof flags.chain === "string" ? flags.chain : undefined;
  if (chain === undefined) return null;
  if (!isChain(chain)) throw new UsageError(`--chain must be one of eth, bnb, polygon, tron, solana, got "${chain}"`);
  return chain;
}

async function reviewed(fn: () => Promise<ReturnType<typeof serializePayout> | never>) {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof PayoutReviewError) throw new UsageError(err.message);
    throw err;
  }
}

/** Payout controls for the operator (docs/PAYOUTS.md): review policy, approve / reject, the deny-list. */
export const PAYOUT_COMMANDS: Record<string, Command> = {
  async "payouts policy show"(db, flags) {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const shown = serializePolicy(await getPayoutPolicy(db, required(flags, "merchant"), mode));
    return {
      json: shown,
      text: [`review above ${shown.review_above ?? "no limit"}, new destinations ${shown.review_new_destinations}`],
    };
  },
  async "payouts policy set"(db, flags) {
    const merchant = required(flags, "merchant");
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const current = await getPayoutPolicy(db, merchant, mode);
    let next = current;
    if (flags["review-above"] !== undefined) {
      const raw = required(flags, "review-above");
      const parsed = raw === "none" ? null : parseAmount(raw, "exact");
      if (parsed && !parsed.ok)
        throw new UsageError(`--review-above: ${parsed.message.replace(/^amount /, "")}, or "none"`);
      next = { ...next, reviewAboveUnits: parsed ? parsed.units : null };
    }
    if (flags["review-new-destinations"] !== undefined) {
      const value = required(flags, "review-new-destinations");
      if (value !== "true" && value !== "false")
        throw new UsageError("--review-new-destinations must be true or false");
      next = { ...next, reviewNewDestinations: value === "true" };
    }
    const policy = next === current ? current : await setPayoutPolicy(db, next);
    const shown = serializePolicy(policy);
    return {
      json: shown,
      text: [
        `${merchant} (${mode}): review above ${shown.review_above ?? "no limit"}, ` +
          `new destinations ${shown.review_new_destinations}`,
      ],
    };
  },
  async "payouts approve"(db, flags) {
    const payout = await reviewed(async () => serializePayout(await approvePayout(db, required(flags, "payout"))));
    return { json: payout, text: [`${payout.id} approved: ${payout.status}`] };
  },
  async "payouts reject"(db, flags) {
    const payout = await reviewed(async () => serializePayout(await rejectPayout(db, required(flags, "payout"))));
    return { json: payout, text: [`${payout.id} rejected: ${payout.status}, ${payout.amount} USDT back in available`] };
  },
  async "denylist add"(db, flags) {
    const entry = await addDenied(
      db,
      required(flags, "address"),
      optionalChain(flags),
      typeof flags.reason === "string" ? flags.reason : null,
    );
    return { json: entry, text: [`denied ${entry.address} on ${entry.chain ?? "every chain"}`] };
  },
  async "denylist remove"(db, flags) {
    const address = required(flags, "address");
    const { removed, ofacReason } = await removeDenied(db, address, optionalChain(flags));
    if (!removed && ofacReason)
      throw new UsageError(
        `${address} is on OFAC's SDN list (${ofacReason}): ` +
          "it leaves the deny-list with the first denylist import-ofac that no longer lists it",
      );
    if (!removed) throw new UsageError(`${address} is not on the deny-list${flags.chain ? ` for ${flags.chain}` : ""}`);
    return { json: { address, chain: optionalChain(flags), removed: true }, text: [`${address} removed`] };
  },
  async "denylist list"(db) {
    const entries = await listDenied(db);
    return {
      json: { object: "list", data: entries },
      text: entries.length
        ? entries.map((e) => `${e.chain ?? "*"}  ${e.address}  (${e.source})${e.reason ? `  ${e.reason}` : ""}`)
        : ["the deny-list is empty"],
    };
  },
  async "denylist import-ofac"(db, flags) {
    const files = [flags.file ?? []].flat().filter((f): f is string => typeof f === "string" && f.trim() !== "");
    if (files.length === 0) throw new UsageError("--file is required: OFAC's SDN.CSV, and its sdn_comments.csv");
    let result: Awaited<ReturnType<typeof importOfac>>;
    try {
      result = await importOfac(db, files);
    } catch (err) {
      if (err instanceof OfacFileError) throw new UsageError(err.message);
      throw err;
    }
    const skipped = Object.entries(result.skipped).map(([currency, n]) => `${currency} ${n}`);
    return {
      json: result,
      text: [
        `imported ${result.imported} OFAC addresses: ${result.evm} EVM (every EVM chain), ` +
          `${result.tron} Tron, ${result.solana} Solana`,
        `removed ${result.removed} no longer listed`,
        `skipped (other chains or malformed): ${skipped.length ? skipped.join(", ") : "none"}`,
      ],
    };
  },
};
