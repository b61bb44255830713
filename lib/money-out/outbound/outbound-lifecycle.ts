import { defineLifecycle, quietStep } from "@/lib/kernel/define-lifecycle";
import { OUTBOUND_STATUSES, type OutboundStatus } from "./outbound-types";

/**
 * What moves an intent (lib/money-out/outbound/track-outbound.ts):
 * - signed: its first candidate's bytes are committed with the nonce / blockhash / expiration they use;
 * - sent: a node accepted a candidate (or already had it);
 * - landed: a candidate is in a block (possibly found there before its broadcast was recorded);
 * - reorged: that block left the chain: back to broadcast, and the same bytes are sent again;
 * - resigned: every candidate provably cannot land (expired, or the nonce was taken): a new one is signed;
 * - confirmed / reverted: the landed candidate reached the chain's depth, succeeded or failed;
 * - given_up: after OUTBOUND_MAX_RESIGNS re-signs, or abandoned before signing (nothing to send any more).
 */
export type OutboundTrigger =
  | "signed"
  | "sent"
  | "landed"
  | "reorged"
  | "resigned"
  | "confirmed"
  | "reverted"
  | "given_up";

const t = quietStep<OutboundStatus, OutboundTrigger>;

export const OUTBOUND_LIFECYCLE = defineLifecycle<OutboundStatus, OutboundTrigger, null>({
  resource: "outbound transaction",
  statuses: OUTBOUND_STATUSES,
  terminal: ["confirmed", "reverted", "expired"],
  transitions: [
    t("intent", "signed", "signed"),
    t("intent", "given_up", "expired"),
    t("signed", "sent", "broadcast"),
    t("signed", "landed", "mined"),
    t("signed", "resigned", "signed"),
    t("signed", "given_up", "expired"),
    t("broadcast", "landed", "mined"),
    t("broadcast", "resigned", "signed"),
    t("broadcast", "given_up", "expired"),
    t("mined", "reorged", "broadcast"),
    t("mined", "confirmed", "confirmed"),
    t("mined", "reverted", "reverted"),
  ],
});
