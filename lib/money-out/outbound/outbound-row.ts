import { outboundCandidates, outboundTransactions } from "@/db/schema";
import { rowMapper } from "@/lib/platform/db/row-mapper";

export const outboundRow = rowMapper(outboundTransactions);
export type OutboundRow = ReturnType<typeof outboundRow.map>;

export const candidateRow = rowMapper(outboundCandidates);
export type CandidateRow = ReturnType<typeof candidateRow.map>;
