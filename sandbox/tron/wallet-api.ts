import { toQuantity } from "./anvil-rpc";
import { formatAddress, toEvm } from "./address";
import { ethBlockById, numberOfBlockId } from "./blocks";
import { broadcastHex, broadcastTransaction } from "./broadcast";
import {
  createTransaction,
  stakeTransaction,
  triggerConstantContract,
  triggerSmartContract,
} from "./build-transaction";
import { accountExists } from "./account-lookup";
import {
  accountResource,
  canDelegateMaxSize,
  chainParameters,
  delegatedResources,
  delegationIndex,
  resourceFields,
} from "./resource-views";
import { weiToSun, type FacadeContext, type View } from "./context";
import { hexAddress } from "./tron-proto";
import { getTransactionById, getTransactionInfoById, transactionInfosOfBlock, tronBlock } from "./tron-tx";

type Params = Record<string, unknown>;
export type Handler = (ctx: FacadeContext, p: Params, view: View) => Promise<unknown>;

const int = (v: unknown, field: string): number => {
  const n = Number(v);
  if (v === undefined || v === "" || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`${field} must be a non-negative integer`);
  return n;
};
const str = (v: unknown): string => (typeof v === "string" ? v : String(v ?? ""));

async function blockById(ctx: FacadeContext, id: string, detail: boolean, view: View) {
  const b = await ethBlockById(ctx.rpc, id);
  return b ? tronBlock(ctx, numberOfBlockId(id), detail, view) : {};
}

/** Read endpoints, served on /wallet and (against the solidified view) on /walletsolidity. */
export const READS: Record<string, Handler> = {
  getnowblock: (ctx, _p, view) => tronBlock(ctx, view.top, true, view),
  async getblock(ctx, p, view) {
    const detail = p.detail === true;
    const id = str(p.id_or_num);
    if (!id) return tronBlock(ctx, view.top, detail, view);
    return /^\d+$/.test(id) ? tronBlock(ctx, Number(id), detail, view) : blockById(ctx, id, detail, view);
  },
  getblockbynum: (ctx, p, view) => tronBlock(ctx, int(p.num, "num"), true, view),
  getblockbyid: (ctx, p, view) => blockById(ctx, str(p.value), true, view),
  async getblockbylimitnext(ctx, p, view) {
    const start = int(p.startNum, "startNum");
    const end = Math.min(int(p.endNum, "endNum"), start + 100, view.top + 1);
    const blocks = [];
    for (let n = start; n < end; n++) blocks.push(await tronBlock(ctx, n, true, view));
    return blocks.length ? { block: blocks } : {};
  },
  async getblockbylatestnum(ctx, p, view) {
    const count = Math.min(int(p.num, "num"), 100);
    return READS.getblockbylimitnext!(ctx, { startNum: Math.max(0, view.top - count + 1), endNum: view.top + 1 }, view);
  },
  gettransactionbyid: (ctx, p, view) => getTransactionById(ctx, str(p.value), view),
  gettransactioninfobyid: (ctx, p, view) => getTransactionInfoById(ctx, str(p.value), view),
  gettransactioninfobyblocknum: (ctx, p, view) => transactionInfosOfBlock(ctx, int(p.num, "num"), view),
  /** Balance in sun at the view's block; java-tron answers {} for an account that does not exist. */
  async getaccount(ctx, p, view) {
    const address = hexAddress(p.address, "address");
    if (!(await accountExists(ctx, address))) return {};
    const tag = view.solid ? toQuantity(view.top) : "latest";
    const [wei, code] = await Promise.all(
      ["eth_getBalance", "eth_getCode"].map((m) => ctx.rpc<string>(m, [toEvm(address), tag])),
    );
    const balance = weiToSun(wei!);
    return {
      address: formatAddress(address, view.visible),
      ...(balance > 0n ? { balance: Number(balance) } : {}),
      ...(code !== "0x" ? { type: "Contract" } : {}),
      ...resourceFields(ctx.accounts.resources(address), ctx.accounts.pendingUnfreezes(address)),
    };
  },
  /** Bandwidth and energy left today, recovered to the head block, as java-tron's Wallet.getAccountResource. */
  async getaccountresource(ctx, p) {
    const address = hexAddress(p.address, "address");
    if (!(await accountExists(ctx, address))) return {};
    return accountResource(ctx, ctx.accounts.resources(address));
  },
  /** Stake 2.0 delegations from one account to another: the unlocked record and the locked one. */
  getdelegatedresourcev2: async (ctx, p, view) =>
    delegatedResources(
      ctx,
      hexAddress(p.fromAddress, "fromAddress"),
      hexAddress(p.toAddress, "toAddress"),
      view.visible,
    ),
  getdelegatedresourceaccountindexv2: async (ctx, p, view) =>
    delegationIndex(ctx, hexAddress(p.value, "value"), view.visible),
  getcandelegatedmaxsize: async (ctx, p) =>
    canDelegateMaxSize(
      ctx,
      hexAddress(p.owner_address, "owner_address"),
      Number(p.type ?? 0) === 1 ? "ENERGY" : "BANDWIDTH",
    ),
  triggerconstantcontract: (ctx, p, view) => triggerConstantContract(ctx, p, view),
  estimateenergy: (ctx, p, view) => triggerConstantContract(ctx, p, view, true),
};

/** Endpoints only the full node has. */
export const WRITES: Record<string, Handler> = {
  triggersmartcontract: (ctx, p) => triggerSmartContract(ctx, p),
  createtransaction: (ctx, p) => createTransaction(ctx, p),
  broadcasttransaction: (ctx, p) => broadcastTransaction(ctx, p),
  broadcasthex: (ctx, p) => broadcastHex(ctx, p),
  freezebalancev2: (ctx, p) => stakeTransaction(ctx, "FreezeBalanceV2Contract", p),
  unfreezebalancev2: (ctx, p) => stakeTransaction(ctx, "UnfreezeBalanceV2Contract", p),
  delegateresource: (ctx, p) => stakeTransaction(ctx, "DelegateResourceContract", p),
  undelegateresource: (ctx, p) => stakeTransaction(ctx, "UnDelegateResourceContract", p),
  withdrawexpireunfreeze: (ctx, p) => stakeTransaction(ctx, "WithdrawExpireUnfreezeContract", p),
  /** The ABI is known only for the sandbox token (contracts are not deployed through the facade). */
  async getcontract(ctx, p, view) {
    const address = hexAddress(p.value, "value");
    const code = await ctx.rpc<string>("eth_getCode", [toEvm(address), "latest"]);
    if (code === "0x") return {};
    const isToken = address === ctx.token.hex;
    return {
      origin_address: formatAddress(address, view.visible),
      contract_address: formatAddress(address, view.visible),
      abi: isToken ? { entrys: ctx.token.abi } : {},
      bytecode: code.slice(2),
      name: isToken ? "SandboxUSDT" : "",
      consume_user_resource_percent: 100,
    };
  },
  async getcontractinfo(ctx, p, view) {
    const contract = (await WRITES.getcontract!(ctx, p, view)) as Record<string, unknown>;
    return contract.contract_address ? { runtimecode: contract.bytecode, smart_contract: contract } : {};
  },
  async getchainparameters(ctx) {
    return chainParameters(ctx.parameters);
  },
  async getnodeinfo(ctx, _p, view) {
    const block = (await tronBlock(ctx, view.top, false, view)) as { blockID?: string };
    return {
      beginSyncNum: 0,
      block: `Num:${view.top},ID:${block.blockID ?? ""}`,
      solidityBlock: `Num:${Math.max(0, view.top - ctx.solidLag)}`,
      currentConnectCount: 0,
      activeConnectCount: 0,
      passiveConnectCount: 0,
      totalFlow: 0,
      configNodeInfo: { codeVersion: "4.7.7", versionNum: "0", p2pVersion: "sandbox", dbVersion: 2 },
      machineInfo: {},
    };
  },
};
