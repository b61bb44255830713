import { MODES, type Mode } from "@/lib/kernel/mode";
import {
  getRefundPolicy,
  parseOverpaidAbove,
  serializeRefundPolicy,
  setRefundPolicy,
} from "@/lib/money-out/refunds/refund-policy";
import type { Db } from "@/lib/platform/db/client";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

type Command = (db: Db, flags: Flags) => Promise<CommandResult>;

const modeOf = (flags: Flags) => {
  const mode = required(flags, "mode") as Mode;
  if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
  return mode;
};

const described = (p: ReturnType<typeof serializeRefundPolicy>) =>
  `${p.merchant} (${p.mode}): overpayments above ${p.overpaid_above ?? "never"} refunded, ` +
  `late payments ${p.refund_late_payments ? "refunded" : "kept"}`;

/** The merchant's refund policy (docs/REFUNDS.md#policy): automatic claim refunds of overpaid and late money. */
export const REFUND_COMMANDS: Record<string, Command> = {
  async "refunds policy show"(db, flags) {
    const shown = serializeRefundPolicy(await getRefundPolicy(db, required(flags, "merchant"), modeOf(flags)));
    return { json: shown, text: [described(shown)] };
  },
  async "refunds policy set"(db, flags) {
    const merchant = required(flags, "merchant");
    const mode = modeOf(flags);
    let next = await getRefundPolicy(db, merchant, mode);
    if (flags["overpaid-above"] !== undefined) {
      const parsed = parseOverpaidAbove(required(flags, "overpaid-above"), "none");
      if (!parsed.ok) throw new UsageError(`--overpaid-above: ${parsed.message}, or "none"`);
      next = { ...next, overpaidAboveUnits: parsed.units };
    }
    if (flags["late-payments"] !== undefined) {
      const value = required(flags, "late-payments");
      if (value !== "true" && value !== "false") throw new UsageError("--late-payments must be true or false");
      next = { ...next, refundLatePayments: value === "true" };
    }
    const shown = serializeRefundPolicy(await setRefundPolicy(db, next));
    return { json: shown, text: [described(shown)] };
  },
};
