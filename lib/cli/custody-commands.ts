import { isChain } from "@/lib/chains/chains";
import { showTreasury } from "@/lib/custody/show-treasury";
import type { Db } from "@/lib/db/client";
import { MODES, type Mode } from "@/lib/modes/mode";
import { listHoldings } from "@/lib/sweeps/list-holdings";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

// The service's own wallets (docs/CUSTODY.md): addresses per role and chain, with balances read from the chains.
export const CUSTODY_COMMANDS: Record<string, (db: Db, flags: Flags) => Promise<CommandResult>> = {
  async "treasury show"(db: Db, flags: Flags): Promise<CommandResult> {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const treasury = await showTreasury(db, mode);
    return {
      json: treasury,
      text: treasury.chains.flatMap((c) =>
        c.roles.map((r) =>
          "error" in r
            ? `${c.chain.padEnd(8)} ${r.role.padEnd(9)} ${r.address}  ${r.error}`
            : `${c.chain.padEnd(8)} ${r.role.padEnd(9)} ${r.address}  ${r.usdt} USDT  ${r.native} ${r.native_symbol}`,
        ),
      ),
    };
  },

  async "sweeps list"(db: Db, flags: Flags): Promise<CommandResult> {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const chain = typeof flags.chain === "string" ? flags.chain : undefined;
    if (chain !== undefined && !isChain(chain))
      throw new UsageError(`--chain must be one of eth, bnb, polygon, tron, solana, got "${chain}"`);
    const list = await listHoldings(db, mode, chain);
    return {
      json: list,
      text: list.data.length
        ? list.data.map(
            (h) => `${h.chain.padEnd(8)} ${h.address}  ${h.unswept} USDT  ${h.state} (threshold ${h.threshold})`,
          )
        : ["no unswept deposits"],
    };
  },
};
