import { defineLifecycle, quietStep } from "@/lib/kernel/define-lifecycle";
import type { CandidateStatus } from "./outbound-types";

/**
 * What moves a candidate, one signed transaction of an intent (progress-sent.ts, check-landed.ts,
 * sign-candidate.ts). A candidate is born `signed` with its bytes.
 * - sent: a node accepted it; landed: it is in a block; moved: it is in another block after a reorg;
 * - reorged: its block left the chain and it is in none: sent again;
 * - confirmed / reverted: it reached the chain's depth, succeeded or failed;
 * - superseded: another candidate of its intent landed and confirmed;
 * - expired: it provably cannot land any more (a re-sign replaces it, or the intent gives up).
 */
export type CandidateTrigger =
  | "sent"
  | "landed"
  | "moved"
  | "reorged"
  | "confirmed"
  | "reverted"
  | "superseded"
  | "expired";

const t = quietStep<CandidateStatus, CandidateTrigger>;

export const CANDIDATE_LIFECYCLE = defineLifecycle<CandidateStatus, CandidateTrigger, null>({
  resource: "outbound candidate",
  statuses: ["signed", "broadcast", "mined", "confirmed", "replaced", "reverted", "expired"],
  terminal: ["confirmed", "replaced", "reverted", "expired"],
  transitions: [
    t("signed", "sent", "broadcast"),
    t("signed", "landed", "mined"),
    t("broadcast", "landed", "mined"),
    t("mined", "moved", "mined"),
    t("mined", "reorged", "broadcast"),
    t("mined", "confirmed", "confirmed"),
    t("mined", "reverted", "reverted"),
    t("signed", "superseded", "replaced"),
    t("broadcast", "superseded", "replaced"),
    t("signed", "expired", "expired"),
    t("broadcast", "expired", "expired"),
  ],
});
