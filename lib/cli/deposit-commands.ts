import { CHAINS, type Chain } from "@/lib/chains/chains";
import { DomainError } from "@/lib/kernel/domain-error";
import { MODES, type Mode } from "@/lib/kernel/mode";
import { serializeDeposit } from "@/lib/money-in/deposit-addresses/serialize-deposit";
import { prepareRescan } from "@/lib/money-in/watch/rescan-transaction";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { type CommandResult, type Flags, required, UsageError } from "./cli-flags";

type Command = (db: Db, flags: Flags) => Promise<CommandResult>;

/**
 * The operator's rescan of one transaction (docs/DEPOSITS.md): its transfers to any merchant's deposit addresses
 * that the watcher missed are recorded and, if deep enough, credited; what was known already stays as it is.
 */
export const DEPOSIT_COMMANDS: Record<string, Command> = {
  async "deposits rescan"(db, flags) {
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const chain = required(flags, "chain") as Chain;
    if (!CHAINS.includes(chain)) throw new UsageError(`--chain must be one of ${CHAINS.join(", ")}, got "${chain}"`);
    const rescan = await prepareRescan(db, { mode, merchantId: null }, chain, required(flags, "tx")).catch(
      (err: unknown) => {
        throw err instanceof DomainError ? new UsageError(err.message) : err;
      },
    );
    const read = await rescan.read(db).catch((err: unknown) => {
      throw err instanceof DomainError ? new UsageError(err.message) : err;
    });
    const result = await inTransaction(db, (tx) => rescan.apply(tx, read));
    const deposits = result.deposits.map(serializeDeposit);
    return {
      json: {
        object: "deposit_rescan",
        chain,
        tx_hash: result.txHash,
        recorded: result.recorded,
        left_to_watcher: result.leftToWatcher,
        deposits,
      },
      text: [
        `${chain} ${result.txHash}: ${result.recorded} deposit(s) recorded now, ${deposits.length} in all` +
          (result.leftToWatcher ? `; ${result.leftToWatcher} in blocks the watcher has not reached (it will)` : ""),
        ...deposits.map((d) => `${d.id}  ${d.status}  ${d.amount} USDT to ${d.address} (${d.deposit_address})`),
      ],
    };
  },
};
