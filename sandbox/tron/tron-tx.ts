import { toQuantity } from "./anvil-rpc";
import { formatAddress, toTronHex } from "./address";
import { blockTimeMs, tronBlockHeader, type EthBlock, type EthLog, type EthTx } from "./blocks";
import { weiToSun, type FacadeContext, type View } from "./context";
import { formatTx } from "./tron-proto";
import type { TronTxJson } from "./tx-index";

interface EthReceipt {
  transactionHash: string;
  blockNumber: string;
  status: string;
  gasUsed: string;
  to: string | null;
  contractAddress: string | null;
  logs: EthLog[];
}

const strip = (h: string) => h.replace(/^0x/, "").toLowerCase();

/** A mined anvil transaction as a Tron one: the signed JSON the facade accepted, or a synthesized stand-in
 * (no signature, txID = anvil hash) for transactions sent to anvil directly, such as the token deployment. */
function tronTx(ctx: FacadeContext, tx: EthTx, receipt: EthReceipt, block: EthBlock, visible: boolean) {
  const entry = ctx.index.get(ctx.index.txIdOf(tx.hash));
  const json: TronTxJson = entry?.tx ?? synthesize(tx, block);
  const contractRet = receipt.status === "0x1" ? "SUCCESS" : "REVERT";
  return { ret: [{ contractRet }], signature: json.signature ?? [], ...formatTx(json, visible) };
}

function synthesize(tx: EthTx, block: EthBlock): TronTxJson {
  const owner_address = toTronHex(tx.from);
  const [type, value] =
    tx.to === null
      ? [
          "CreateSmartContract",
          { owner_address, new_contract: { bytecode: strip(tx.input), origin_address: owner_address } },
        ]
      : tx.input && tx.input !== "0x"
        ? ["TriggerSmartContract", { data: strip(tx.input), owner_address, contract_address: toTronHex(tx.to) }]
        : ["TransferContract", { amount: Number(weiToSun(tx.value)), owner_address, to_address: toTronHex(tx.to) }];
  return {
    txID: strip(tx.hash),
    raw_data: {
      contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type }],
      timestamp: blockTimeMs(block),
    },
    raw_data_hex: "",
  };
}

async function mined(ctx: FacadeContext, id: string, view: View) {
  const ethHash = ctx.index.ethHashOf(id);
  if (!ethHash) return null;
  const receipt = await ctx.rpc<EthReceipt | null>("eth_getTransactionReceipt", [ethHash]);
  if (!receipt || Number(receipt.blockNumber) > view.maxBlock) return null;
  const [tx, block] = await Promise.all([
    ctx.rpc<EthTx>("eth_getTransactionByHash", [ethHash]),
    ctx.rpc<EthBlock>("eth_getBlockByNumber", [receipt.blockNumber, false]),
  ]);
  return { tx, receipt, block };
}

export async function getTransactionById(ctx: FacadeContext, id: string, view: View) {
  const m = await mined(ctx, id, view);
  return m ? tronTx(ctx, m.tx, m.receipt, m.block, view.visible) : {};
}

export async function getTransactionInfoById(ctx: FacadeContext, id: string, view: View) {
  const m = await mined(ctx, id, view);
  return m ? transactionInfo(ctx, m.tx, m.receipt, m.block) : {};
}

/** gettransactioninfobyid: receipt and logs in Tron's shape; energy is anvil's gas used (never charged). */
async function transactionInfo(ctx: FacadeContext, tx: EthTx, receipt: EthReceipt, block: EthBlock) {
  const ok = receipt.status === "0x1";
  const id = ctx.index.txIdOf(tx.hash);
  const entry = ctx.index.get(id);
  const base = { id, blockNumber: Number(receipt.blockNumber), blockTimeStamp: blockTimeMs(block) };
  const log = receipt.logs.map((l) => ({
    address: strip(l.address),
    topics: l.topics.map(strip),
    data: strip(l.data),
  }));
  const isContract = tx.to === null || (tx.input && tx.input !== "0x");
  if (!isContract) {
    const size = entry ? entry.tx.raw_data_hex.length / 2 + 65 * (entry.tx.signature?.length ?? 0) + 64 : 0;
    return { ...base, receipt: { net_usage: size }, ...(ok ? {} : { result: "FAILED" }) };
  }
  const output = await ctx.rpc<{ output?: string }>("debug_traceTransaction", [tx.hash, { tracer: "callTracer" }]).then(
    (t) => strip(t.output ?? ""),
    () => "",
  );
  const contract = receipt.contractAddress ?? tx.to!;
  return {
    ...base,
    contractResult: [output],
    contract_address: toTronHex(contract),
    receipt: { energy_usage_total: Number(receipt.gasUsed), result: ok ? "SUCCESS" : "REVERT" },
    ...(log.length ? { log } : {}),
    ...(ok ? {} : { result: "FAILED", resMessage: Buffer.from("REVERT opcode executed").toString("hex") }),
  };
}

async function blockReceipts(ctx: FacadeContext, block: EthBlock): Promise<Map<string, EthReceipt>> {
  if (!block.transactions.length) return new Map();
  const receipts = await ctx.rpc<EthReceipt[]>("eth_getBlockReceipts", [block.number]);
  return new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
}

/** A Tron block: header only when `detail` is false, and `transactions` left out when there are none. */
export async function tronBlock(ctx: FacadeContext, num: number, detail: boolean, view: View) {
  if (num > view.maxBlock || num < 0) return {};
  const block = await ctx.rpc<EthBlock | null>("eth_getBlockByNumber", [toQuantity(num), detail]);
  if (!block) return {};
  const header = tronBlockHeader(block, view.visible, formatAddress);
  if (!detail || !block.transactions.length) return header;
  const receipts = await blockReceipts(ctx, block);
  const transactions = (block.transactions as EthTx[]).map((tx) =>
    tronTx(ctx, tx, receipts.get(tx.hash.toLowerCase())!, block, view.visible),
  );
  return { ...header, transactions };
}

export async function transactionInfosOfBlock(ctx: FacadeContext, num: number, view: View) {
  if (num > view.maxBlock || num < 0) return [];
  const block = await ctx.rpc<EthBlock | null>("eth_getBlockByNumber", [toQuantity(num), true]);
  if (!block) return [];
  const receipts = await blockReceipts(ctx, block);
  return Promise.all(
    (block.transactions as EthTx[]).map((tx) => transactionInfo(ctx, tx, receipts.get(tx.hash.toLowerCase())!, block)),
  );
}
