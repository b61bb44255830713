import { createHash, randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { BlockRef, TokenTransfer } from "@/lib/chains/chain-adapter";
import type { Chain, ChainFamily } from "@/lib/chains/chains";
import { matchAddressTransfers } from "@/lib/money-in/deposit-addresses/match-address-transfers";
import { creditAddressDeposits, recordAddressDeposits } from "@/lib/money-in/deposit-addresses/record-address-deposits";
import type { WatchScope } from "@/lib/money-in/deposits/watch-scope";
import { getDb, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

/** The watch key of the bench's address `g` of a family: computed the same way here and in SQL. */
export const benchKey = (family: ChainFamily, g: number) =>
  family === "solana"
    ? `S${createHash("sha256").update(`${family}${g}`).digest("hex").slice(0, 43)}`
    : `0x${createHash("sha256").update(`${family}${g}`).digest("hex").slice(0, 40)}`;
const keySql = (family: ChainFamily) =>
  family === "solana"
    ? `'S' || substr(encode(sha256(('${family}' || g::text)::bytea), 'hex'), 1, 43)`
    : `'0x' || substr(encode(sha256(('${family}' || g::text)::bytea), 'hex'), 1, 40)`;

/** Adds the family's bench addresses `from`..`to` (active, one merchant), as the API would have made them. */
export async function addAddresses(merchantId: string, family: ChainFamily, chain: Chain, from: number, to: number) {
  for (let start = from; start <= to; start += 100_000) {
    const end = Math.min(to, start + 99_999);
    await query(
      getDb(),
      `insert into deposit_addresses (id, merchant_id, mode, chain, family, address, watch_key, derivation_index,
         status)
       select 'da_bench_${family}_' || g, $1, 'sandbox', $2, $3, ${keySql(family)}, ${keySql(family)},
         1073741824 + g, 'active'
       from generate_series($4::int, $5::int) g`,
      [merchantId, chain, family, start, end],
    );
  }
  await query(getDb(), "analyze deposit_addresses");
}

const ROLLBACK = new Error("rolled back on purpose");

/**
 * One block's detection work that depends on the number of addresses: `transfers` token transfers (as a busy
 * mainnet block has), `hits` of them to deposit addresses, matched against the index, recorded and credited in one
 * transaction, which is then rolled back so every round sees the same tables. Returns ms per block, per round.
 */
export async function detectionRounds(
  scope: WatchScope,
  family: ChainFamily,
  addresses: number,
  opts: { rounds: number; transfers: number; hits: number },
): Promise<number[]> {
  const times: number[] = [];
  const block: BlockRef = { number: 1_000_000, hash: `0x${"ab".repeat(32)}`, time: new Date() };
  const blocks = new Map([[block.number, block]]);
  for (let r = 0; r < opts.rounds; r++) {
    const transfers: TokenTransfer[] = Array.from({ length: opts.transfers }, (_, i) => ({
      txHash: `0x${randomBytes(32).toString("hex")}`,
      logIndex: i,
      position: 0,
      blockNumber: block.number,
      blockHash: block.hash,
      from: `0x${randomBytes(20).toString("hex")}`,
      toKey:
        i < opts.hits
          ? benchKey(family, 1 + Math.floor(Math.random() * addresses))
          : benchKey(family, -1 - Math.floor(Math.random() * 1e9)),
      rawAmount: 5_000_000n,
    }));
    const started = performance.now();
    await inTransaction(getDb(), async (tx) => {
      const matched = await matchAddressTransfers(tx, scope, transfers);
      if (matched.length !== opts.hits) throw new Error(`matched ${matched.length} of ${opts.hits}`);
      await recordAddressDeposits(tx, scope, matched, blocks);
      await creditAddressDeposits(tx, scope, { number: block.number + 100 });
      throw ROLLBACK;
    }).catch((err) => {
      if (err !== ROLLBACK) throw err;
    });
    times.push(performance.now() - started);
  }
  return times;
}
