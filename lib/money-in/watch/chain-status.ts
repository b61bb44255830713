import { z } from "zod";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import { CHAINS } from "@/lib/kernel/chain-ids";
import type { Mode } from "@/lib/kernel/mode";
import { timestamp } from "@/lib/kernel/schemas/response-fields";
import type { Db } from "@/lib/platform/db/client";
import { loadChainHealth } from "./load-chain-health";

/** One chain as GET /v1/chains shows it: its published confirmation policy and its watcher's health. */
export const chainStatusObject = z
  .strictObject({
    object: z.literal("chain"),
    chain: z.enum(CHAINS),
    name: z.string().meta({ examples: ["Polygon"] }),
    confirmations: z
      .strictObject({
        confirming: z.int().meta({ description: "Confirmations at which a payment becomes `confirming`." }),
        confirmed: z.int().meta({ description: "Confirmations at which it is `confirmed` and credited." }),
      })
      .meta({ description: "The confirmation policy payments on this chain follow." }),
    block_time_ms: z.int(),
    head: z.int().nullable().meta({ description: "The newest block (slot) the watcher has seen." }),
    processed_block: z.int().nullable().meta({ description: "The newest block (slot) applied to payments." }),
    lag_blocks: z.int().nullable(),
    lag_seconds: z
      .int()
      .nullable()
      .meta({ description: "How far behind the applied block is, at the chain's block time." }),
    status: z.enum(["ok", "lagging", "erroring", "not_watched"]),
    healthy: z.boolean().meta({ description: "`status` is `ok`: payments on this chain are being detected." }),
    last_error: z.string().nullable().meta({ description: "The watcher's last failure (secrets removed)." }),
    last_error_at: timestamp.nullable(),
  })
  .meta({ id: "Chain" });
export type ChainStatusObject = z.input<typeof chainStatusObject>;

/** The chains `configs` names, in their order, with what their watchers recorded (chain_cursors). */
export async function listChainStatus(
  db: Db,
  mode: Mode,
  configs: ChainConfig[],
  now = new Date(),
): Promise<ChainStatusObject[]> {
  const health = await loadChainHealth(
    db,
    mode,
    configs.map((c) => c.chain),
    now,
  );
  return configs.map((config, i) => {
    const h = health[i]!;
    return {
      object: "chain",
      chain: config.chain,
      name: CHAIN_SPECS[config.chain].name,
      confirmations: { confirming: config.confirmations.threshold, confirmed: config.confirmations.required },
      block_time_ms: config.blockTimeMs,
      head: h.head,
      processed_block: h.processed,
      lag_blocks: h.lag,
      lag_seconds: h.lag === null ? null : Math.round((h.lag * config.blockTimeMs) / 1000),
      status: h.state === "not watched" ? "not_watched" : h.state,
      healthy: h.state === "ok",
      last_error: h.lastError,
      last_error_at: h.lastErrorAt,
    };
  });
}
