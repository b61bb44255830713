import { createPublicClient, type Hex, http } from "viem";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { fromUsdtUnits } from "@/lib/chains/chain-adapter";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { roleAddress } from "@/lib/chains/wallets/role-address";
import { until } from "./wait";

export interface TransferCost {
  /** Native base units (wei, sun, lamports) the transaction paid, as the outbound journal records it. */
  fee: bigint;
  /** EVM: the receipt's gas used; null elsewhere. */
  gas: bigint | null;
  /** Solana: lamports put into a token account it created (the recipient's); 0 elsewhere. */
  rent: bigint;
}

/** Gas used by each of these transactions (EVM), in order. */
export async function gasUsed(config: ChainConfig, hashes: string[]): Promise<bigint[]> {
  const client = createPublicClient({ transport: http(config.rpcUrl), cacheTime: 0 });
  return Promise.all(hashes.map(async (h) => (await client.getTransactionReceipt({ hash: h as Hex })).gasUsed));
}

/**
 * Plain token transfers as the service sends them: straight outbound intents from the treasury (no payout row,
 * no job), each to `recipient`, waited for until confirmed. The first finds the recipient without the token (a
 * new balance slot, Tron energy for it, a Solana token account); the second finds it holding some.
 */
export async function plainTransfer(
  config: ChainConfig,
  recipient: string,
): Promise<{ fresh: TransferCost; holder: TransferCost }> {
  const treasury = await roleAddress(getDb(), config.mode, config.chain, "treasury");
  const costs: TransferCost[] = [];
  for (let i = 0; i < 2; i++) {
    const intent = await createOutbound(getDb(), {
      mode: config.mode,
      chain: config.chain,
      purpose: "payout",
      signer: { role: "treasury" },
      fromAddress: treasury.address,
      toAddress: recipient,
      asset: "token",
      rawAmount: fromUsdtUnits(10_000n, config.decimals),
    });
    type Row = { status: string; fee_native: string | null; rent: string; tx_hash: string | null };
    let row: Row | undefined;
    await until("the transfer confirmed", async () => {
      [row] = await query<Row>(
        getDb(),
        "select status, fee_native::text, coalesce(rent_paid_native, 0)::text as rent, tx_hash " +
          "from outbound_transactions where id = $1",
        [intent.id],
      );
      return row!.status === "confirmed";
    });
    const gas = config.family === "evm" ? (await gasUsed(config, [row!.tx_hash!]))[0]! : null;
    costs.push({ fee: BigInt(row!.fee_native!), gas, rent: BigInt(row!.rent) });
  }
  return { fresh: costs[0]!, holder: costs[1]! };
}
