import { toEvm } from "./address";
import type { FacadeContext } from "./context";
import { headSlot } from "./resources";

/**
 * java-tron's clocks: the head block's time (ms; expire times of stake) and its head slot (resource recovery: 3 s
 * intervals of block time since genesis).
 */
export async function headClock(ctx: FacadeContext): Promise<{ ms: bigint; slot: bigint }> {
  const [head, genesis] = await Promise.all(
    ["latest", "0x0"].map((tag) => ctx.rpc<{ timestamp: string }>("eth_getBlockByNumber", [tag, false])),
  );
  const ms = BigInt(head!.timestamp) * 1000n;
  return { ms, slot: headSlot(ms, BigInt(genesis!.timestamp) * 1000n) };
}

export const nowSlot = async (ctx: FacadeContext): Promise<bigint> => (await headClock(ctx)).slot;

/** Whether java-tron would find an account at this address (41-hex). */
export async function accountExists(ctx: FacadeContext, address: string): Promise<boolean> {
  if (ctx.accounts.has(address)) return true;
  if ((await ctx.rpc<string>("eth_getCode", [toEvm(address), "latest"])) !== "0x") return true;
  if (!ctx.accounts.legacy) return false;
  const [wei, nonce] = await Promise.all([
    ctx.rpc<string>("eth_getBalance", [toEvm(address), "latest"]),
    ctx.rpc<string>("eth_getTransactionCount", [toEvm(address), "latest"]),
  ]);
  return BigInt(wei) > 0n || Number(nonce) > 0;
}
