import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { createChainAdapter } from "@/lib/chains/connect/chain-families";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import type { Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createOutbound } from "./create-outbound";
import type { OutboundRow } from "./outbound-row";
import type { OutboundPurpose } from "./outbound-types";

/** The transfers the treasury pays out of its USDT: they share its liquidity and its queue. */
export const TREASURY_PURPOSES = ["payout", "payout_batch", "refund"] as const satisfies readonly OutboundPurpose[];
/** The treasury's transfers with one destination each. */
export type TreasuryPurpose = "payout" | "refund";

/** What the treasury held at the chain's head, and its transfers still open just before that read. */
export interface TreasuryLiquidity {
  address: string;
  held: bigint;
  mined: string[];
  unmined: string[];
}

/**
 * A network read, outside any transaction: the treasury's USDT, with the treasury transfers open before it
 * was read, split by whether they were already mined then. The balance (read at the head) has left every
 * transfer mined before it, and only those, so what still takes from it is every open transfer except those
 * already mined before the read (and still mined), and any transfer unmined before the read that has since
 * confirmed. A transfer mined between the two reads is counted twice: a short wait, never an overdraft.
 */
export async function readTreasuryLiquidity(db: Db, config: ChainConfig): Promise<TreasuryLiquidity> {
  const treasury = await roleAddress(db, config.mode, config.chain, "treasury");
  const rows = await query<{ id: string; status: string }>(
    db,
    `select id, status from outbound_transactions
      where mode = $1 and chain = $2 and purpose = any($3) and status not in ('confirmed','reverted','expired')`,
    [config.mode, config.chain, TREASURY_PURPOSES],
  );
  const held = (await createChainAdapter(config).balances(treasury.address)).token;
  return {
    address: treasury.address,
    held,
    mined: rows.filter((r) => r.status === "mined").map((r) => r.id),
    unmined: rows.filter((r) => r.status !== "mined").map((r) => r.id),
  };
}

/**
 * Takes the (mode, chain)'s treasury queue for the caller's transaction: its transfers queue one at a time,
 * so two never count the same liquidity.
 */
export async function lockTreasuryQueue(tx: Db, config: ChainConfig): Promise<void> {
  // The key predates refunds; kept so that a worker of the previous release and this one exclude each other.
  await query(tx, "select pg_advisory_xact_lock(hashtext('usdt-payments:payouts:' || $1 || ':' || $2))", [
    config.mode,
    config.chain,
  ]);
}

/**
 * Under the queue's lock: records the transfer of `amountUnits` (6 decimals) from the treasury to `toAddress`
 * in the outbound journal, or returns null when the treasury, less its transfers still to leave, cannot cover it.
 */
export async function queueTreasuryTransfer(
  tx: Db,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  transfer: { purpose: TreasuryPurpose; causeId: string; toAddress: string; amountUnits: bigint },
): Promise<OutboundRow | null> {
  const raw = fromUsdtUnits(transfer.amountUnits, config.decimals);
  if (!(await treasuryCovers(tx, config, liquidity, raw))) return null;
  return createOutbound(tx, {
    mode: config.mode,
    chain: config.chain,
    purpose: transfer.purpose,
    signer: { role: "treasury" },
    fromAddress: liquidity.address,
    toAddress: transfer.toAddress,
    asset: "token",
    rawAmount: raw,
    causeId: transfer.causeId,
  });
}

/** Under the queue's lock: whether the treasury, less its transfers still to leave, covers `raw` more. */
export async function treasuryCovers(
  tx: Db,
  config: ChainConfig,
  liquidity: TreasuryLiquidity,
  raw: bigint,
): Promise<boolean> {
  const [queued] = await query<{ raw: string }>(tx, OWED_BY_TREASURY, [
    config.mode,
    config.chain,
    liquidity.mined,
    liquidity.unmined,
    TREASURY_PURPOSES,
  ]);
  return liquidity.held - BigInt(queued!.raw) >= raw;
}

const OWED_BY_TREASURY = `
  select coalesce(sum(raw_amount), 0)::text as raw from (
    select raw_amount from outbound_transactions
     where mode = $1 and chain = $2 and purpose = any($5) and status not in ('confirmed','reverted','expired')
       and not (status = 'mined' and id = any($3))
    union all
    select raw_amount from outbound_transactions where id = any($4) and status = 'confirmed'
  ) owed`;
