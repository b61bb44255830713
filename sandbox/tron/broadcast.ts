import { utils as tronUtils } from "tronweb";
import { toQuantity } from "./anvil-rpc";
import { toEvm } from "./address";
import { blockTimeMs, ethBlock, headNumber, taposMatches } from "./blocks";
import { chargeTransaction } from "./charge";
import { sunToWei, type FacadeContext } from "./context";
import {
  type ContractType,
  decodeRawData,
  decodeSignedHex,
  formatTx,
  isStakeContract,
  rawHexOfJson,
  sha256Hex,
} from "./tron-proto";
import { normalizeId, type TronTxJson } from "./tx-index";
import { validateContract } from "./validate-contract";

const MAX_EXPIRATION_MS = 24 * 3600 * 1000;
/** Contract calls get a fixed gas budget on anvil: energy and fee_limit are settled before, in Tron's terms. */
const CONTRACT_GAS = 5_000_000n;
/** Tron's black hole (T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb): burnt fees are sent here on anvil. */
export const BLACK_HOLE = "0x0000000000000000000000000000000000000000";
/** Where frozen TRX is kept on anvil while staked (Stake 2.0): not an account any Tron request can reach. */
const STAKE_VAULT = "0x000000000000000000000000000000005374616b";

type Code =
  | "SIGERROR"
  | "BANDWITH_ERROR"
  | "TAPOS_ERROR"
  | "TRANSACTION_EXPIRATION_ERROR"
  | "DUP_TRANSACTION_ERROR"
  | "CONTRACT_VALIDATE_ERROR"
  | "OTHER_ERROR";
const refuse = (code: Code, txid: string, text: string) => ({
  result: false as const,
  code,
  txid,
  message: Buffer.from(text).toString("hex"),
});
export type BroadcastResult = { result: true; txid: string } | ReturnType<typeof refuse>;

interface SignedInput {
  txID?: unknown;
  raw_data?: unknown;
  raw_data_hex?: unknown;
  signature?: unknown;
}

/** /wallet/broadcasttransaction: java-tron's checks in the order the sandbox documents, then execution on anvil. */
export async function broadcastTransaction(ctx: FacadeContext, body: SignedInput): Promise<BroadcastResult> {
  let rawHex = typeof body.raw_data_hex === "string" ? body.raw_data_hex.replace(/^0x/, "").toLowerCase() : "";
  let fromJson: string | null = null;
  try {
    fromJson = body.raw_data ? rawHexOfJson(body.raw_data) : null;
  } catch {
    /* a contract type TronWeb cannot serialize: decodeRawData rejects it below */
  }
  rawHex ||= fromJson ?? "";
  if (!/^([0-9a-f]{2})+$/.test(rawHex)) return refuse("OTHER_ERROR", "", "raw_data_hex is missing or not hex");
  const txid = sha256Hex(rawHex);
  // java-tron hashes what raw_data says; a raw_data that differs from the signed bytes fails the signature there.
  if (fromJson && fromJson !== rawHex)
    return refuse("SIGERROR", txid, "Validate signature error: raw_data does not match raw_data_hex");
  if (body.txID !== undefined && normalizeId(String(body.txID)) !== txid)
    return refuse("SIGERROR", txid, "Validate signature error: txID is not sha256(raw_data)");

  const raw = decodeRawData(rawHex);
  if (!raw)
    return refuse(
      "CONTRACT_VALIDATE_ERROR",
      txid,
      "contract type not supported by the sandbox (TriggerSmartContract, TransferContract, Stake 2.0)",
    );
  const contract = raw.contract[0]!;
  const value = contract.parameter.value;
  const owner = String(value.owner_address);

  const signature = Array.isArray(body.signature)
    ? body.signature.map((s) => String(s).replace(/^0x/, "").toLowerCase())
    : [];
  if (!signature.length) return refuse("SIGERROR", txid, "miss sig or contract");
  for (const sig of signature) {
    let signer = "";
    try {
      signer = tronUtils.crypto.ecRecover(txid, sig).toLowerCase();
    } catch {
      /* malformed signature */
    }
    if (signer !== owner)
      return refuse(
        "SIGERROR",
        txid,
        `Validate signature error: ${sig} is signed by ${signer || "nobody"} but it is not contained of permission.`,
      );
  }

  // java-tron measures expiration against the head block's time, not the wall clock.
  const head = await headNumber(ctx.rpc);
  const headTime = blockTimeMs((await ethBlock(ctx.rpc, head))!);
  const expiration = Number(raw.expiration);
  if (expiration <= headTime)
    return refuse(
      "TRANSACTION_EXPIRATION_ERROR",
      txid,
      `Transaction expiration, transaction expiration time is ${expiration}, but headBlockTime is ${headTime}`,
    );
  if (expiration > headTime + MAX_EXPIRATION_MS)
    return refuse(
      "TRANSACTION_EXPIRATION_ERROR",
      txid,
      `Transaction expiration time is ${expiration}, more than 24 hours after headBlockTime ${headTime}`,
    );

  if (!(await taposMatches(ctx.rpc, head, String(raw.ref_block_bytes), String(raw.ref_block_hash))))
    return refuse(
      "TAPOS_ERROR",
      txid,
      `Tapos check error: no recent block ${raw.ref_block_bytes}/${raw.ref_block_hash}`,
    );

  if (!ctx.index.reserve(txid)) return refuse("DUP_TRANSACTION_ERROR", txid, "Dup transaction.");
  try {
    const type = contract.type as ContractType;
    const invalid = await validateContract(ctx, type, value, Number(raw.fee_limit ?? 0));
    if (invalid) {
      ctx.index.release(txid);
      return refuse("CONTRACT_VALIDATE_ERROR", txid, invalid);
    }
    const ownerEvm = toEvm(owner).toLowerCase();
    const sent = await oneAtATime(ownerEvm, async () => {
      const charge = await chargeTransaction(ctx, type, value, {
        rawHex,
        signatures: signature.length,
        feeLimit: BigInt(Number(raw.fee_limit ?? 0)),
      });
      if (!charge.ok) return { ok: false as const, refused: charge };
      // The fees leave the balance first (java-tron charges bandwidth before anything runs); a call that cannot
      // afford its energy is mined as that burn alone, so it fails without touching state.
      const burnHash = charge.burnt > 0n || charge.outOfEnergy ? await burn(ctx, ownerEvm, charge.burnt) : undefined;
      const ethHash = charge.outOfEnergy
        ? burnHash!
        : isStakeContract(type)
          ? await moveStake(ctx, ownerEvm, charge.staked ?? 0n)
          : await send(ctx, type, value);
      ctx.accounts.update(charge.changes);
      return {
        ok: true as const,
        ethHash,
        receipt: charge.receipt,
        burnHash: charge.outOfEnergy ? undefined : burnHash,
      };
    });
    if (!sent.ok) {
      ctx.index.release(txid);
      return refuse(sent.refused.code, txid, sent.refused.message);
    }
    ctx.index.record(
      txid,
      sent.ethHash,
      { txID: txid, raw_data: raw, raw_data_hex: rawHex, signature },
      { receipt: sent.receipt, burnHash: sent.burnHash },
    );
    return { result: true, txid };
  } catch (e) {
    ctx.index.release(txid);
    return refuse("OTHER_ERROR", txid, e instanceof Error ? e.message : String(e));
  }
}

// Tron transactions carry no nonce, but their anvil twins do: anvil gives two concurrent sends from one
// account the same nonce and refuses the second as an underpriced replacement. One send per account at a time.
const sending = new Map<string, Promise<unknown>>();
function oneAtATime<T>(account: string, fn: () => Promise<T>): Promise<T> {
  const run = (sending.get(account) ?? Promise.resolve()).then(fn, fn);
  const settled = run.catch(() => undefined);
  sending.set(account, settled);
  void settled.then(() => sending.get(account) === settled && sending.delete(account));
  return run;
}

/** The sun a transaction burns, as a plain transfer to the black hole ahead of it. */
async function burn(ctx: FacadeContext, from: string, sun: bigint): Promise<string> {
  const wei = sunToWei(sun);
  const gasPrice = await gasPriceFor(ctx, from, wei, 21_000n);
  const tx = { from, to: BLACK_HOLE, value: toQuantity(wei), gas: toQuantity(21_000n), gasPrice: toQuantity(gasPrice) };
  return ctx.rpc<string>("eth_sendTransaction", [tx]);
}

/**
 * Staked TRX leaves the owner's anvil balance for the stake vault, and comes back from it when an unfreeze is
 * withdrawn; a contract that moves no TRX (delegation) is a zero transfer, so it has its place in a block.
 */
async function moveStake(ctx: FacadeContext, owner: string, staked: bigint): Promise<string> {
  const [from, to] = staked < 0n ? [STAKE_VAULT, owner] : [owner, STAKE_VAULT];
  const wei = sunToWei(staked < 0n ? -staked : staked);
  const gasPrice = await gasPriceFor(ctx, from, wei, 21_000n);
  const tx = { from, to, value: toQuantity(wei), gas: toQuantity(21_000n), gasPrice: toQuantity(gasPrice) };
  return ctx.rpc<string>("eth_sendTransaction", [tx]);
}

/** Sends the call as the owner (anvil auto-impersonation), gas priced at the base fee, which the sandbox keeps at 0. */
async function send(ctx: FacadeContext, type: ContractType, value: Record<string, unknown>): Promise<string> {
  const from = toEvm(String(value.owner_address));
  const transfer = type === "TransferContract";
  const to = toEvm(String(transfer ? value.to_address : value.contract_address));
  const wei = sunToWei(Number((transfer ? value.amount : value.call_value) ?? 0));
  const gas = transfer ? 21_000n : CONTRACT_GAS;
  const gasPrice = await gasPriceFor(ctx, from, wei, gas);
  const tx = {
    from,
    to,
    value: toQuantity(wei),
    gas: toQuantity(gas),
    gasPrice: toQuantity(gasPrice),
    ...(transfer ? {} : { data: `0x${value.data}` }),
  };
  return ctx.rpc<string>("eth_sendTransaction", [tx]);
}

/** Anvil's gas is not Tron's fee (that is burnt in sun, above): if the base fee ever rose above 0, the gas is given. */
async function gasPriceFor(ctx: FacadeContext, from: string, wei: bigint, gas: bigint): Promise<bigint> {
  const latest = await ctx.rpc<{ baseFeePerGas?: string }>("eth_getBlockByNumber", ["latest", false]);
  const gasPrice = BigInt(latest.baseFeePerGas ?? 0) * 2n;
  if (gasPrice > 0n) {
    const balance = BigInt(await ctx.rpc<string>("eth_getBalance", [from, "pending"]));
    if (balance < wei + gas * gasPrice) await ctx.rpc("anvil_setBalance", [from, toQuantity(wei + gas * gasPrice)]);
  }
  return gasPrice;
}

/**
 * /wallet/broadcasthex: a serialized Transaction protobuf; answers like java-tron with the transaction as JSON text.
 */
export async function broadcastHex(ctx: FacadeContext, body: { transaction?: unknown }) {
  let decoded;
  try {
    decoded = decodeSignedHex(String(body.transaction ?? ""));
  } catch {
    return refuse("OTHER_ERROR", "", "transaction is not a serialized Transaction");
  }
  const result = await broadcastTransaction(ctx, { raw_data_hex: decoded.rawHex, signature: decoded.signature });
  const raw = decodeRawData(decoded.rawHex);
  const tx: TronTxJson | null = raw
    ? { txID: result.txid, raw_data: raw, raw_data_hex: decoded.rawHex, signature: decoded.signature }
    : null;
  return { ...result, ...(tx ? { transaction: JSON.stringify(formatTx(tx, false)) } : {}) };
}
