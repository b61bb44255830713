import { sameAddress } from "@/lib/chains/address-key";
import { familyTraits } from "@/lib/chains/family-traits";
import { type CustodyAccount, type CustodyEntry, move } from "@/lib/books/custody/custody-types";
import { postCustody } from "@/lib/books/custody/post-custody";
import type { Db } from "@/lib/platform/db/client";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import type { OutboundTrigger } from "./outbound-lifecycle";
import type { OutboundRow } from "./outbound-row";
import type { OutboundStatus } from "./outbound-types";

type Side = { account: CustodyAccount; address: string | null };

const FEES: Side = { account: "fees", address: null };
const RENT: Side = { account: "token_account_rent", address: null };
const PAYEES: Side = { account: "payees", address: null };

/**
 * The custody books' side of an intent's transition (docs/CUSTODY.md, "The installation's own books"), posted
 * by transitionOutbound in the transaction that makes it:
 * - signed (its first candidate): the amount leaves its source (the signer's role, or deposit_addresses) for
 *   in_flight;
 * - confirmed: in_flight → its destination (treasury or sweeper by address; deposit_addresses for a gas top-up;
 *   payees otherwise); reverted: back to the source. Either way the fee is paid (fee payer → fees), and on
 *   Solana the rent of token accounts it created (fee payer → token_account_rent) or closed (back to `rentTo`);
 * - given up after signing: in_flight → source (nothing landed).
 * A reorganization below the depth moves nothing: the books follow confirmations only. A Tron energy delegation
 * or reclaim (asset `stake`) moves only its fee.
 */
export async function postOutboundCustody(
  tx: Db,
  before: OutboundStatus,
  row: OutboundRow,
  trigger: OutboundTrigger,
): Promise<void> {
  const entries = await custodyEntriesOf(tx, before, row, trigger);
  if (entries.length)
    await postCustody(tx, [{ mode: row.mode, chain: row.chain, cause: { type: "outbound", id: row.id }, entries }]);
}

async function custodyEntriesOf(
  tx: Db,
  before: OutboundStatus,
  row: OutboundRow,
  trigger: OutboundTrigger,
): Promise<CustodyEntry[]> {
  const asset = row.asset === "token" ? "usdt" : "native";
  const source: Side = {
    account: row.signer.role === "deposit" ? "deposit_addresses" : row.signer.role,
    address: row.fromAddress,
  };
  // Lending staked TRX's energy moves no coin: only the transaction's fee reaches the books.
  if (row.asset === "stake")
    return trigger === "confirmed" || trigger === "reverted" ? move("native", row.feeNative ?? 0n, source, FEES) : [];
  const inFlight: Side = { account: "in_flight", address: row.fromAddress };
  // A batched sweep's USDT leaves its members' deposit addresses (the sweeper only signs and pays the gas).
  const members = row.purpose === "sweep_batch" ? (row.options.batch?.members ?? []) : [];
  const fromSources = (to: Side) =>
    members.length
      ? members.flatMap((m) => move(asset, BigInt(m.raw), { account: "deposit_addresses", address: m.address }, to))
      : move(asset, row.rawAmount, source, to);
  const toSources = (from: Side) =>
    members.length
      ? members.flatMap((m) => move(asset, BigInt(m.raw), from, { account: "deposit_addresses", address: m.address }))
      : move(asset, row.rawAmount, from, source);
  switch (trigger) {
    case "signed":
      return fromSources(inFlight);
    case "given_up":
      return before === "intent" ? [] : toSources(inFlight);
    case "confirmed":
    case "reverted": {
      const sides = await serviceSides(tx, row, source);
      const to =
        sides.of(row.toAddress) ??
        (row.purpose === "gas_topup" ? { account: "deposit_addresses", address: row.toAddress } : PAYEES);
      // Solana: a deposit owner holds no SOL; the sweeper pays its transactions' fees (and any rent).
      const payer =
        familyTraits(row.chain).sweeperPaysDepositFees && row.signer.role === "deposit" ? sides.sweeper : source;
      const rentTo = (row.options.rentTo && sides.of(row.options.rentTo)) || PAYEES;
      return [
        ...(trigger === "reverted" ? toSources(inFlight) : move(asset, row.rawAmount, inFlight, to)),
        ...move("native", row.feeNative ?? 0n, payer, FEES),
        ...move("native", row.rentPaidNative ?? 0n, payer, RENT),
        ...move("native", row.rentReturnedNative ?? 0n, RENT, rentTo),
      ];
    }
    default:
      return [];
  }
}

/** The service's own side of an address: the intent's source, the treasury or the sweeper; null for others. */
async function serviceSides(tx: Db, row: OutboundRow, source: Side) {
  const treasury = await roleAddress(tx, row.mode, row.chain, "treasury");
  const sweeper: Side = {
    account: "sweeper",
    address: (await roleAddress(tx, row.mode, row.chain, "sweeper")).address,
  };
  const known: Side[] = [source, { account: "treasury", address: treasury.address }, sweeper];
  return { sweeper, of: (address: string) => known.find((s) => sameAddress(s.address, address)) ?? null };
}
