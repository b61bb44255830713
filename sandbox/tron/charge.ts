import { toEvm, toTronHex } from "./address";
import { toQuantity } from "./anvil-rpc";
import { weiToSun, type FacadeContext } from "./context";
import type { AccountChanges } from "./accounts";
import { EMPTY_RESOURCES } from "./resources";
import { chargeAccountCreation, chargeBandwidth, transactionBandwidthBytes } from "./resources-bandwidth";
import { chargeEnergy, USDT_TRANSFER_ENERGY } from "./resources-energy";
import { accountExists, headClock } from "./account-lookup";
import { applyStake } from "./stake";
import { type ContractType, isStakeContract } from "./tron-proto";
import type { TronReceipt } from "./tx-index";

/** ERC-20/TRC-20 transfer(address,uint256) and balanceOf(address). */
const TRANSFER_SELECTOR = "a9059cbb";
const BALANCE_OF_SELECTOR = "70a08231";

export type Charge =
  | { ok: false; code: "BANDWITH_ERROR" | "CONTRACT_VALIDATE_ERROR"; message: string }
  | {
      ok: true;
      /** Sun taken from the owner's balance (bandwidth, account creation, energy). */
      burnt: bigint;
      receipt: TronReceipt;
      /** The call ran out of its energy budget: it is mined without running (state untouched). */
      outOfEnergy: boolean;
      /** Accounts whose resources changed, or which this transaction creates. */
      changes: AccountChanges;
      /** Stake 2.0: TRX moved into (+) or out of (−) the owner's stake. */
      staked?: bigint;
    };

/**
 * What a validated transaction costs its owner, as java-tron's Manager.processTransaction charges it: bandwidth
 * (or account creation) before anything runs, then the contract's energy against its fee_limit. Must run with the
 * owner's sends serialized, since it reads and then updates the owner's resources and balance.
 */
export async function chargeTransaction(
  ctx: FacadeContext,
  type: ContractType,
  value: Record<string, unknown>,
  tx: { rawHex: string; signatures: number; feeLimit: bigint },
): Promise<Charge> {
  const owner = toTronHex(String(value.owner_address));
  if (!(await accountExists(ctx, owner)))
    return { ok: false, code: "CONTRACT_VALIDATE_ERROR", message: `Validate ${type} error, no OwnerAccount.` };
  const p = ctx.parameters;
  const w = ctx.accounts.weights;
  const clock = await headClock(ctx);
  const now = clock.slot;
  // "pending": an earlier broadcast of this owner (amount and burn) may not be mined yet.
  const balance = weiToSun(await ctx.rpc<string>("eth_getBalance", [toEvm(owner), "pending"]));
  const account = ctx.accounts.resources(owner);
  const bytes = transactionBandwidthBytes(BigInt(tx.rawHex.length / 2), BigInt(tx.signatures));

  if (type === "TransferContract") {
    const to = toTronHex(String(value.to_address));
    const amount = BigInt(Number(value.amount ?? 0));
    if (!(await accountExists(ctx, to))) {
      const c = chargeAccountCreation(account, balance, amount, bytes, now, p, w);
      if (!c.ok) return { ok: false, code: c.code, message: c.message };
      return {
        ok: true,
        burnt: c.burnt,
        receipt: { fee: c.burnt, net_usage: c.netUsage, net_fee: c.netFee },
        outOfEnergy: false,
        changes: {
          resources: [
            [owner, c.account],
            [to, { ...EMPTY_RESOURCES }],
          ],
        },
      };
    }
    const c = chargeBandwidth(account, balance, bytes, now, p, w);
    if (!c.ok) return { ok: false, code: c.code, message: "Account resource insufficient error." };
    if (balance - c.netFee < amount)
      return {
        ok: false,
        code: "CONTRACT_VALIDATE_ERROR",
        message: "Validate TransferContract error, balance is not sufficient.",
      };
    return {
      ok: true,
      burnt: c.netFee,
      receipt: { fee: c.netFee, net_usage: c.netUsage, net_fee: c.netFee },
      outOfEnergy: false,
      changes: { resources: [[owner, c.account]] },
    };
  }

  const net = chargeBandwidth(account, balance, bytes, now, p, w);
  if (!net.ok) return { ok: false, code: net.code, message: "Account resource insufficient error." };
  if (isStakeContract(type)) {
    const done = await applyStake(ctx, type, value, net.account, balance - net.netFee, clock.ms, now);
    if (!done.ok) return { ok: false, code: "CONTRACT_VALIDATE_ERROR", message: done.message };
    return {
      ok: true,
      burnt: net.netFee,
      receipt: {
        fee: net.netFee,
        net_usage: net.netUsage,
        net_fee: net.netFee,
        ...(done.staked < 0n ? { withdraw_expire_amount: -done.staked } : {}),
      },
      outOfEnergy: false,
      changes: done.changes,
      staked: done.staked,
    };
  }
  const callValue = BigInt(Number(value.call_value ?? 0));
  const needs = await energyNeeded(ctx, owner, value, callValue);
  const bill = chargeEnergy(
    {
      caller: net.account,
      balance: balance - net.netFee,
      feeLimit: tx.feeLimit,
      callValue,
      energyUsed: needs.energy,
      outcome: needs.outcome,
    },
    now,
    p,
    w,
  );
  if (!bill.ok) return { ok: false, code: bill.code, message: bill.message };
  const burnt = net.netFee + bill.energyFee;
  return {
    ok: true,
    burnt,
    receipt: {
      fee: burnt,
      net_usage: net.netUsage,
      net_fee: net.netFee,
      energy_usage: bill.energyUsage,
      energy_fee: bill.energyFee,
      energy_usage_total: bill.energyUsageTotal,
      result: bill.result,
    },
    outOfEnergy: bill.result === "OUT_OF_ENERGY" || bill.result === "EXCEPTION",
    changes: { resources: [[owner, bill.caller]] },
  };
}

/**
 * The energy a call takes. Anvil's gas is not TVM energy, so the token's transfer is charged mainnet USDT's figures
 * (by whether the recipient's balance is zero); any other call, its EVM execution gas as an approximation. A call
 * that reverts is billed the gas it used up to the revert.
 */
export async function energyNeeded(
  ctx: FacadeContext,
  owner: string,
  value: Record<string, unknown>,
  callValue: bigint,
  tag = "latest",
): Promise<{ energy: bigint; outcome: "SUCCESS" | "REVERT" }> {
  const to = toEvm(String(value.contract_address));
  const data = String(value.data ?? "").replace(/^0x/, "");
  const call = { from: toEvm(owner), to, data: `0x${data}`, value: toQuantity(callValue * 10n ** 12n) };
  const trace = await ctx.rpc<{ gasUsed: string; error?: string }>("debug_traceCall", [
    call,
    tag,
    { tracer: "callTracer" },
  ]);
  const execution = BigInt(trace.gasUsed) - intrinsicGas(data);
  const used = execution > 0n ? execution : 0n;
  if (trace.error) return { energy: used, outcome: "REVERT" };
  if (`41${to.slice(2).toLowerCase()}` === ctx.token.hex && data.startsWith(TRANSFER_SELECTOR)) {
    const recipient = `0x${data.slice(8 + 24, 8 + 64)}`;
    const held = await ctx.rpc<string>("eth_call", [
      { to, data: `0x${BALANCE_OF_SELECTOR}${recipient.slice(2).padStart(64, "0")}` },
      tag,
    ]);
    const energy = BigInt(held) === 0n ? USDT_TRANSFER_ENERGY.toEmptyBalance : USDT_TRANSFER_ENERGY.toHolder;
    return { energy, outcome: "SUCCESS" };
  }
  return { energy: used, outcome: "SUCCESS" };
}

/** The EVM's per-transaction gas (21,000 plus calldata), which has no counterpart in Tron's energy. */
function intrinsicGas(dataHex: string): bigint {
  let gas = 21_000n;
  for (let i = 0; i < dataHex.length; i += 2) gas += dataHex.slice(i, i + 2) === "00" ? 4n : 16n;
  return gas;
}
