import { z } from "zod";
import { chainStatusObject } from "@/lib/money-in/watch/chain-status";
import { defineOperation } from "../operation";

export const CHAINS_OPERATIONS = {
  list: defineOperation({
    operationId: "listChains",
    method: "get",
    path: "/v1/chains",
    tag: "Chains",
    summary: "List the chains and their health",
    description:
      "Per chain enabled for the key's mode: the confirmation policy payments follow, the block time, and the " +
      "watcher's head, lag and last error. `healthy: false` means payments on that chain are detected late until " +
      "it recovers.",
    scope: "payments:read",
    query: z.strictObject({}),
    response: z.strictObject({ object: z.literal("list"), data: z.array(chainStatusObject) }).meta({ id: "ChainList" }),
  }),
};
