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
  const vm = entry?.receipt?.result;
  const contractRet = vm === "OUT_OF_ENERGY" ? vm : receipt.status === "0x1" ? "SUCCESS" : "REVERT";
  return { ret: [{ contractRet }], signature: json.signature ?? [], ...formatTx(json, visible) };
}

/** The anvil transactions of a block that are Tron transactions (fee burns of the facade are not). */
const tronTransactions = (ctx: FacadeContext, block: EthBlock) =>
  block.transactions.filter((tx) => !ctx.index.isBurn(typeof tx === "string" ? tx : tx.hash)) as EthTx[];

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

const FEE_FIELDS = ["energy_usage", "energy_fee", "energy_usage_total", "net_usage", "net_fee"] as const;

/** gettransactioninfobyid: receipt and logs in Tron's shape, with what the transaction paid (zero fields omitted). */
async function transactionInfo(ctx: FacadeContext, tx: EthTx, receipt: EthReceipt, block: EthBlock) {
  const id = ctx.index.txIdOf(tx.hash);
  const entry = ctx.index.get(id);
  const paid = entry?.receipt;
  const outOfEnergy = paid?.result === "OUT_OF_ENERGY";
  const ok = receipt.status === "0x1" && !outOfEnergy;
  const fee = Number(paid?.fee ?? 0);
  const base = {
    id,
    ...(fee > 0 ? { fee } : {}),
    blockNumber: Number(receipt.blockNumber),
    blockTimeStamp: blockTimeMs(block),
  };
  const charged = Object.fromEntries(
    FEE_FIELDS.filter((k) => Number(paid?.[k] ?? 0) > 0).map((k) => [k, Number(paid![k])]),
  );
  const log = receipt.logs.map((l) => ({
    address: strip(l.address),
    topics: l.topics.map(strip),
    data: strip(l.data),
  }));
  const type = entry?.tx.raw_data.contract[0]?.type;
  const isContract = type ? type === "TriggerSmartContract" : tx.to === null || (tx.input && tx.input !== "0x");
  if (!isContract) {
    const size = entry ? entry.tx.raw_data_hex.length / 2 + 65 * (entry.tx.signature?.length ?? 0) + 64 : 0;
    const withdrawn = Number(paid?.withdraw_expire_amount ?? 0);
    return {
      ...base,
      receipt: paid ? charged : { net_usage: size },
      ...(withdrawn > 0 ? { withdraw_expire_amount: withdrawn } : {}),
      ...(ok ? {} : { result: "FAILED" }),
    };
  }
  const output = outOfEnergy
    ? ""
    : await ctx.rpc<{ output?: string }>("debug_traceTransaction", [tx.hash, { tracer: "callTracer" }]).then(
        (t) => strip(t.output ?? ""),
        () => "",
      );
  const called = entry?.tx.raw_data.contract[0]?.parameter.value.contract_address;
  const contract = receipt.contractAddress ?? (called ? `0x${String(called).slice(2)}` : tx.to!);
  const result = outOfEnergy ? "OUT_OF_ENERGY" : ok ? "SUCCESS" : "REVERT";
  return {
    ...base,
    contractResult: [output],
    contract_address: toTronHex(contract),
    receipt: paid ? { ...charged, result } : { energy_usage_total: Number(receipt.gasUsed), result },
    ...(log.length && !outOfEnergy ? { log } : {}),
    ...(ok
      ? {}
      : {
          result: "FAILED",
          resMessage: Buffer.from(outOfEnergy ? "Not enough energy" : "REVERT opcode executed").toString("hex"),
        }),
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
  const txs = tronTransactions(ctx, block);
  if (!detail || !txs.length) return header;
  const receipts = await blockReceipts(ctx, block);
  const transactions = txs.map((tx) => tronTx(ctx, tx, receipts.get(tx.hash.toLowerCase())!, block, view.visible));
  return { ...header, transactions };
}

export async function transactionInfosOfBlock(ctx: FacadeContext, num: number, view: View) {
  if (num > view.maxBlock || num < 0) return [];
  const block = await ctx.rpc<EthBlock | null>("eth_getBlockByNumber", [toQuantity(num), true]);
  if (!block) return [];
  const receipts = await blockReceipts(ctx, block);
  return Promise.all(
    tronTransactions(ctx, block).map((tx) => transactionInfo(ctx, tx, receipts.get(tx.hash.toLowerCase())!, block)),
  );
}
