import { RpcError, toQuantity } from "./anvil-rpc";
import { toEvm } from "./address";
import { blockIdOf, ethBlock, ethBlockById, headNumber, type EthBlock, type EthLog, type EthTx } from "./blocks";
import { weiToSun, type FacadeContext } from "./context";

/**
 * Tron's Ethereum-style /jsonrpc, read only: anvil's answers with every transaction hash replaced by the Tron
 * txID and every block hash by the Tron blockID (both 0x-prefixed, as java-tron's jsonrpc returns them).
 */
const MAX_LOG_RANGE = 5000;
const invalid = (message: string) => new RpcError(-32602, message);

const txHash = (ctx: FacadeContext, h: string) => `0x${ctx.index.txIdOf(h)}`;
const blockHash = (num: string, h: string | null) => (h ? `0x${blockIdOf(num, h)}` : null);

const mapLog = (ctx: FacadeContext, l: EthLog) => ({
  ...l,
  blockHash: blockHash(l.blockNumber, l.blockHash),
  transactionHash: txHash(ctx, l.transactionHash),
  removed: false,
});
const mapTx = (ctx: FacadeContext, t: EthTx) => ({
  ...t,
  hash: txHash(ctx, t.hash),
  blockHash: t.blockNumber ? blockHash(t.blockNumber, t.blockHash) : null,
});

function mapBlock(ctx: FacadeContext, b: EthBlock | null) {
  if (!b) return null;
  const num = Number(b.number);
  return {
    ...b,
    hash: `0x${blockIdOf(num, b.hash)}`,
    parentHash: num === 0 ? `0x${"0".repeat(64)}` : `0x${blockIdOf(num - 1, b.parentHash)}`,
    // The facade's fee burns are anvil transactions, not Tron ones.
    transactions: b.transactions
      .filter((t) => !ctx.index.isBurn(typeof t === "string" ? t : t.hash))
      .map((t) => (typeof t === "string" ? txHash(ctx, t) : mapTx(ctx, t))),
  };
}

/** Block tags as Tron accepts them: no "pending" (nothing is pending on a Tron node's jsonrpc). */
async function blockTag(ctx: FacadeContext, tag: unknown): Promise<number> {
  if (tag === undefined || tag === null || tag === "latest") return headNumber(ctx.rpc);
  if (tag === "earliest") return 0;
  if (tag === "finalized") return Math.max(0, (await headNumber(ctx.rpc)) - ctx.solidLag);
  if (tag === "pending") throw invalid("TAG pending not supported");
  if (typeof tag === "string" && /^0x[0-9a-f]+$/i.test(tag)) return Number(tag);
  throw invalid(`invalid block number: ${String(tag)}`);
}

const ethHashParam = (ctx: FacadeContext, p: unknown) => ctx.index.ethHashOf(String(p ?? ""));

interface LogFilter {
  fromBlock?: string;
  toBlock?: string;
  blockHash?: string;
  address?: string | string[];
  topics?: unknown[];
}

async function getLogs(ctx: FacadeContext, f: LogFilter = {}) {
  const filter: Record<string, unknown> = { topics: f.topics ?? [] };
  if (f.address) filter.address = (Array.isArray(f.address) ? f.address : [f.address]).map((a) => toEvm(a));
  if (f.blockHash) {
    if (f.fromBlock || f.toBlock)
      throw invalid("cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other");
    const block = await ethBlockById(ctx.rpc, f.blockHash);
    if (!block) return [];
    filter.blockHash = block.hash;
  } else {
    const [from, to] = [await blockTag(ctx, f.fromBlock), await blockTag(ctx, f.toBlock)];
    if (from > to) return [];
    if (to - from > MAX_LOG_RANGE) throw invalid(`exceed max block range: ${MAX_LOG_RANGE}`);
    Object.assign(filter, { fromBlock: toQuantity(from), toBlock: toQuantity(to) });
  }
  return (await ctx.rpc<EthLog[]>("eth_getLogs", [filter])).map((l) => mapLog(ctx, l));
}

const METHODS: Record<string, (ctx: FacadeContext, params: unknown[]) => Promise<unknown>> = {
  eth_chainId: async (ctx) => toQuantity(ctx.chainId),
  net_version: async (ctx) => String(ctx.chainId),
  web3_clientVersion: async () => "TRON/sandbox-facade",
  eth_blockNumber: async (ctx) => toQuantity(await headNumber(ctx.rpc)),
  eth_getBlockByNumber: async (ctx, [tag, full]) =>
    mapBlock(ctx, await ethBlock(ctx.rpc, await blockTag(ctx, tag), full === true)),
  eth_getBlockByHash: async (ctx, [hash, full]) =>
    mapBlock(ctx, await ethBlockById(ctx.rpc, String(hash ?? ""), full === true)),
  async eth_getTransactionByHash(ctx, [hash]) {
    const h = ethHashParam(ctx, hash);
    const tx = h ? await ctx.rpc<EthTx | null>("eth_getTransactionByHash", [h]) : null;
    return tx?.blockNumber ? mapTx(ctx, tx) : null;
  },
  async eth_getTransactionReceipt(ctx, [hash]) {
    const h = ethHashParam(ctx, hash);
    const r = h
      ? await ctx.rpc<
          | (Record<string, unknown> & {
              blockNumber: string;
              blockHash: string;
              transactionHash: string;
              logs: EthLog[];
            })
          | null
        >("eth_getTransactionReceipt", [h])
      : null;
    // A call that could not afford its energy is mined as its fee burn alone: failed, whatever anvil says.
    const outOfEnergy = r && ctx.index.get(ctx.index.txIdOf(r.transactionHash))?.receipt?.result === "OUT_OF_ENERGY";
    return (
      r && {
        ...r,
        ...(outOfEnergy ? { status: "0x0" } : {}),
        transactionHash: txHash(ctx, r.transactionHash),
        blockHash: blockHash(r.blockNumber, r.blockHash),
        logs: r.logs.map((l) => mapLog(ctx, l)),
      }
    );
  },
  eth_getLogs: (ctx, [filter]) => getLogs(ctx, filter as LogFilter),
  eth_call: async (ctx, [call, tag]) => ctx.rpc("eth_call", [call, toQuantity(await blockTag(ctx, tag))]),
  /** Tron's jsonrpc reports balances in sun. */
  eth_getBalance: async (ctx, [address, tag]) =>
    toQuantity(
      weiToSun(await ctx.rpc<string>("eth_getBalance", [toEvm(String(address)), toQuantity(await blockTag(ctx, tag))])),
    ),
};

type Request = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown };

async function one(ctx: FacadeContext, req: Request) {
  const id = req?.id ?? null;
  const method = typeof req?.method === "string" ? METHODS[req.method] : undefined;
  if (!method)
    return {
      jsonrpc: "2.0",
      id,
      error: { code: -32601, message: `the method ${String(req?.method)} does not exist/is not available` },
    };
  try {
    return { jsonrpc: "2.0", id, result: await method(ctx, Array.isArray(req.params) ? req.params : []) };
  } catch (e) {
    const code = e instanceof RpcError ? e.code : -32000;
    return { jsonrpc: "2.0", id, error: { code, message: e instanceof Error ? e.message : String(e) } };
  }
}

/** One request or a batch. */
export async function handleJsonRpc(ctx: FacadeContext, body: unknown): Promise<unknown> {
  if (Array.isArray(body)) return Promise.all(body.map((r) => one(ctx, r as Request)));
  return one(ctx, body as Request);
}
