import type { Hex } from "viem";
import { log } from "@/lib/platform/log";

type Rpc = <T>(method: string, params: unknown[]) => Promise<T>;
type PoolTx = { hash: Hex; from: Hex; nonce: Hex; blockNumber: Hex | null };

/**
 * Removes a not yet mined transaction from anvil's pool; false when the node had no such pending one.
 * anvil_dropTransaction only reaches a "ready" transaction (it drops the later ones of its sender that need it
 * too); one still waiting for an earlier nonce ("queued") is out of its reach, so that one goes with all of its
 * sender's pooled transactions (anvil_removePoolTransactions) and those with earlier nonces are sent again,
 * which leaves the same outcome.
 */
export async function dropPoolTransaction(rpc: Rpc, hash: string): Promise<boolean> {
  const pending = async () => {
    const tx = await rpc<PoolTx | null>("eth_getTransactionByHash", [hash]);
    return tx && tx.blockNumber === null ? tx : null;
  };
  const tx = await pending();
  if (!tx) return false;
  await rpc("anvil_dropTransaction", [hash]);
  if (await pending()) {
    const earlier = await earlierPooled(rpc, tx);
    await rpc("anvil_removePoolTransactions", [tx.from]);
    for (const raw of earlier) {
      // Refused only if it became invalid meanwhile (e.g. priced
      // under a raised base fee): then a block would drop it too.
      await rpc("eth_sendRawTransaction", [raw]).catch((err: unknown) =>
        log.warn("sandbox drop: an earlier pooled transaction was not taken back", { error: String(err) }),
      );
    }
  }
  return (await rpc<PoolTx | null>("eth_getTransactionByHash", [hash])) === null;
}

/** The signed forms of the sender's pooled transactions with a lower nonce than `tx`, lowest first. */
async function earlierPooled(rpc: Rpc, tx: PoolTx): Promise<Hex[]> {
  const content = await rpc<Record<"pending" | "queued", Record<string, Record<string, PoolTx>>>>("txpool_content", []);
  const nonce = BigInt(tx.nonce);
  const mine = [content.pending, content.queued].flatMap((bySender) =>
    Object.entries(bySender ?? {})
      .filter(([sender]) => sender.toLowerCase() === tx.from.toLowerCase())
      .flatMap(([, byNonce]) => Object.values(byNonce)),
  );
  const earlier = mine.filter((t) => BigInt(t.nonce) < nonce).sort((a, b) => Number(BigInt(a.nonce) - BigInt(b.nonce)));
  const raws = await Promise.all(earlier.map((t) => rpc<Hex | null>("eth_getRawTransactionByHash", [t.hash])));
  return raws.filter((raw): raw is Hex => raw !== null);
}
