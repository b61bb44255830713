import { keccak256, toHex } from "viem";
import { toQuantity, RpcError } from "./anvil-rpc";
import { toEvm } from "./address";
import { ethBlock, headNumber, refBlockParams } from "./blocks";
import { accountExists, headClock } from "./account-lookup";
import { energyNeeded } from "./charge";
import { sunToWei, weiToSun, type FacadeContext, type View } from "./context";
import { applyStake } from "./stake";
import { buildTx, formatTx, hexAddress, type ContractType, type StakeContractType } from "./tron-proto";
import { validateContract } from "./validate-contract";

type Params = Record<string, unknown>;
const hexMessage = (text: string) => Buffer.from(text).toString("hex");
const num = (v: unknown): number => (v === undefined || v === null || v === "" ? 0 : Number(v));

/** Reference block = the head, expiration = head time + 60 s, timestamp = now: what java-tron's builders do. */
async function build(ctx: FacadeContext, type: ContractType, value: Params, p: Params, feeLimit?: number) {
  const head = await ethBlock(ctx.rpc, await headNumber(ctx.rpc));
  const ref = refBlockParams(head!);
  const tx = buildTx(
    type,
    value,
    { ...ref, timestamp: Date.now(), fee_limit: feeLimit },
    num(p.Permission_id) || undefined,
  );
  return formatTx(tx, p.visible === true);
}

/**
 * TriggerSmartContract value from a request: `data`, or `function_selector` + `parameter` as java-tron encodes them.
 */
function triggerValue(p: Params): Params {
  const selector = typeof p.function_selector === "string" ? p.function_selector.replace(/\s*/g, "") : "";
  const data =
    typeof p.data === "string" && p.data
      ? p.data.replace(/^0x/, "")
      : selector
        ? keccak256(toHex(selector)).slice(2, 10) + String(p.parameter ?? "").replace(/^0x/, "")
        : "";
  const value: Params = {
    data: data.toLowerCase(),
    owner_address: hexAddress(p.owner_address, "owner_address"),
    contract_address: hexAddress(p.contract_address, "contract_address"),
  };
  for (const k of ["call_value", "call_token_value", "token_id"]) if (num(p[k])) value[k] = num(p[k]);
  return value;
}

const validateError = (message: string) => ({
  result: { code: "CONTRACT_VALIDATE_ERROR", message: hexMessage(message) },
});

/** /wallet/triggersmartcontract: an unsigned transaction for a state-changing call. */
export async function triggerSmartContract(ctx: FacadeContext, p: Params) {
  const value = triggerValue(p);
  const feeLimit = num(p.fee_limit);
  const error = await validateContract(ctx, "TriggerSmartContract", value, feeLimit);
  if (error) return validateError(error);
  return { result: { result: true }, transaction: await build(ctx, "TriggerSmartContract", value, p, feeLimit) };
}

/** /wallet/createtransaction: an unsigned TRX transfer (amount in sun). */
export async function createTransaction(ctx: FacadeContext, p: Params) {
  const value = {
    amount: num(p.amount),
    owner_address: hexAddress(p.owner_address, "owner_address"),
    to_address: hexAddress(p.to_address, "to_address"),
  };
  const error = await validateContract(ctx, "TransferContract", value);
  if (error) return { Error: `class org.tron.core.exception.ContractValidateException : ${error}` };
  return build(ctx, "TransferContract", value, p);
}

/**
 * /wallet/triggerconstantcontract and /wallet/estimateenergy: eth_call (at the solidified block on /walletsolidity).
 */
export async function triggerConstantContract(ctx: FacadeContext, p: Params, view: View, estimate = false) {
  const value = triggerValue({ owner_address: "410000000000000000000000000000000000000000", ...p });
  const call = {
    from: toEvm(String(value.owner_address)),
    to: toEvm(String(value.contract_address)),
    data: `0x${value.data}`,
    value: toQuantity(sunToWei(num(value.call_value))),
  };
  const tag = view.solid ? toQuantity(view.top) : "latest";
  try {
    const output = await ctx.rpc<string>("eth_call", [call, tag]);
    // The energy the broadcast would be charged (USDT's mainnet figures for the token's transfer).
    const needed = await energyNeeded(ctx, String(value.owner_address), value, BigInt(num(value.call_value)), tag);
    const energy = Number(needed.energy);
    if (estimate) return { result: { result: true }, energy_required: energy };
    return {
      result: { result: true },
      energy_used: energy,
      constant_result: [output.replace(/^0x/, "")],
      transaction: await build(ctx, "TriggerSmartContract", value, p),
    };
  } catch (e) {
    if (!(e instanceof RpcError) || e.code !== 3) throw e;
    const data = typeof e.data === "string" ? e.data.replace(/^0x/, "") : "";
    return {
      result: { code: "CONTRACT_EXE_ERROR", message: hexMessage("REVERT opcode executed") },
      energy_used: 0,
      constant_result: [data],
    };
  }
}

/**
 * /wallet/freezebalancev2, unfreezebalancev2, delegateresource, undelegateresource, withdrawexpireunfreeze: the
 * unsigned Stake 2.0 transaction, after the same checks the broadcast will make (java-tron validates when building).
 */
export async function stakeTransaction(ctx: FacadeContext, type: StakeContractType, p: Params) {
  const owner_address = hexAddress(p.owner_address, "owner_address");
  const resource = p.resource === "ENERGY" ? "ENERGY" : "BANDWIDTH";
  const value: Params =
    type === "FreezeBalanceV2Contract"
      ? { owner_address, frozen_balance: num(p.frozen_balance), resource }
      : type === "UnfreezeBalanceV2Contract"
        ? { owner_address, unfreeze_balance: num(p.unfreeze_balance), resource }
        : type === "WithdrawExpireUnfreezeContract"
          ? { owner_address }
          : {
              owner_address,
              receiver_address: hexAddress(p.receiver_address, "receiver_address"),
              balance: num(p.balance),
              resource,
              ...(type === "DelegateResourceContract" && p.lock === true ? { lock: true } : {}),
              ...(type === "DelegateResourceContract" && num(p.lock_period) ? { lock_period: num(p.lock_period) } : {}),
            };
  const invalid = await checkStake(ctx, type, value);
  if (invalid) return { Error: `class org.tron.core.exception.ContractValidateException : ${invalid}` };
  return build(ctx, type, value, p);
}

/** The actuator's verdict on the current state, nothing recorded. */
async function checkStake(ctx: FacadeContext, type: StakeContractType, value: Params): Promise<string | null> {
  const owner = String(value.owner_address);
  if (!(await accountExists(ctx, owner))) return "Account does not exist";
  const clock = await headClock(ctx);
  const balance = weiToSun(await ctx.rpc<string>("eth_getBalance", [toEvm(owner), "pending"]));
  const done = await applyStake(ctx, type, value, ctx.accounts.resources(owner), balance, clock.ms, clock.slot);
  return done.ok ? null : done.message;
}
