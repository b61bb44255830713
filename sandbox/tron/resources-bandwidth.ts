/**
 * Bandwidth charges as java-tron's BandwidthProcessor.consume makes them, for one-contract transactions that are not
 * TRC-10 transfers: TransferContract, TriggerSmartContract and the Stake 2.0 contracts.
 */
import {
  type AccountResources,
  increase,
  increaseWindowed,
  type NetworkWeights,
  netLimit,
  recovery,
  type TronChainParameters,
} from "./resources";

/** Constant.MAX_RESULT_SIZE_IN_TX: bytes billed per contract for the result java-tron may attach later. */
export const MAX_RESULT_SIZE_IN_TX = 64n;
/** A secp256k1 signature and its protobuf framing (field tag + length byte). */
const SIGNATURE_FIELD_BYTES = 67n;

const varintLength = (n: bigint) => {
  let len = 1n;
  for (let v = n >> 7n; v > 0n; v >>= 7n) len++;
  return len;
};

/**
 * The bytes a transaction is billed for: its protobuf size with `ret` cleared (raw_data field + signatures), plus
 * MAX_RESULT_SIZE_IN_TX per contract (BandwidthProcessor.consume, since supportVM).
 */
export function transactionBandwidthBytes(rawDataBytes: bigint, signatureCount: bigint, contractCount = 1n): bigint {
  const rawField = 1n + varintLength(rawDataBytes) + rawDataBytes;
  return rawField + signatureCount * SIGNATURE_FIELD_BYTES + contractCount * MAX_RESULT_SIZE_IN_TX;
}

/** Where the bytes were paid from, with the receipt fields java-tron reports (net_usage, net_fee). */
export type BandwidthCharge =
  | {
      ok: true;
      source: "staked" | "free" | "burn";
      account: AccountResources;
      /** receipt.net_usage: the bytes taken from stake or the free allowance (0 when burnt). */
      netUsage: bigint;
      /** receipt.net_fee: sun burnt (bytes × getTransactionFee when neither resource covers the whole size). */
      netFee: bigint;
    }
  | { ok: false; code: "BANDWITH_ERROR"; account: AccountResources; needed: bigint };

/** Staked bandwidth: all or nothing (useAccountNet). Returns the updated account, or null when short. */
function takeStakedNet(a: AccountResources, cost: bigint, now: bigint, p: TronChainParameters, w: NetworkWeights) {
  const used = recovery(a.netUsage, a.latestConsumeTime, now, a.netWindowSize);
  if (cost > netLimit(a, p, w) - used) return null;
  const next = increaseWindowed(a.netUsage, cost, a.latestConsumeTime, now, a.netWindowSize);
  return { ...a, netUsage: next.usage, netWindowSize: next.windowSize, latestConsumeTime: now };
}

/**
 * BandwidthProcessor.consume for a transaction that creates no account: staked bandwidth if it covers every byte,
 * else the free daily allowance if it covers every byte, else bytes × transactionFee burnt from the balance.
 * Each source is all-or-nothing: 300 bytes with 200 free left burns for all 300.
 */
export function chargeBandwidth(
  account: AccountResources,
  balance: bigint,
  bytes: bigint,
  now: bigint,
  p: TronChainParameters,
  w: NetworkWeights,
): BandwidthCharge {
  const staked = takeStakedNet(account, bytes, now, p, w);
  if (staked) return { ok: true, source: "staked", account: staked, netUsage: bytes, netFee: 0n };

  // useFreeNet (java-tron also checks the network-wide public allowance of 14.4e9 bytes/day; never reached here).
  const freeUsed = increase(account.freeNetUsage, 0n, account.latestConsumeFreeTime, now);
  if (bytes <= p.freeNetLimit - freeUsed) {
    const freeNetUsage = increase(freeUsed, bytes, now, now);
    return {
      ok: true,
      source: "free",
      account: { ...account, freeNetUsage, latestConsumeFreeTime: now },
      netUsage: bytes,
      netFee: 0n,
    };
  }

  const fee = bytes * p.transactionFee;
  if (balance < fee) return { ok: false, code: "BANDWITH_ERROR", account, needed: fee };
  return { ok: true, source: "burn", account, netUsage: 0n, netFee: fee };
}

/** A TransferContract to an address with no account: what is burnt and reported, or why it is refused. */
export type AccountCreationCharge =
  | {
      ok: true;
      account: AccountResources;
      /** receipt.net_usage: bytes × createNewAccountBandwidthRate when staked bandwidth paid, else 0. */
      netUsage: bigint;
      /** receipt.net_fee: createAccountFee (0.1 TRX) when staked bandwidth could not pay. */
      netFee: bigint;
      /** The actuator's createNewAccountFeeInSystemContract (1 TRX), part of transaction-info `fee`. */
      systemFee: bigint;
      /** Everything burnt: netFee + systemFee (the amount itself moves to the new account). */
      burnt: bigint;
    }
  | { ok: false; code: "BANDWITH_ERROR" | "CONTRACT_VALIDATE_ERROR"; account: AccountResources; message: string };

/**
 * BandwidthProcessor.consumeForCreateNewAccount, then TransferActuator.validate/execute. The free allowance never
 * pays for a creation: staked bandwidth (bytes × rate) or createAccountFee. Then the actuator burns
 * createNewAccountFeeInSystemContract and wants amount + that fee from what the bandwidth step left.
 * Only TRX (and TRC-10) transfers activate an account; a TRC-20 transfer only writes the token's storage.
 */
export function chargeAccountCreation(
  account: AccountResources,
  balance: bigint,
  amount: bigint,
  bytes: bigint,
  now: bigint,
  p: TronChainParameters,
  w: NetworkWeights,
): AccountCreationCharge {
  const netCost = bytes * p.createNewAccountBandwidthRate;
  const staked = takeStakedNet(account, netCost, now, p, w);
  const netFee = staked ? 0n : p.createAccountFee;
  if (!staked && balance < netFee) {
    const message = `account has insufficient bandwidth[${bytes}] and balance[${netFee}] to create new account`;
    return { ok: false, code: "BANDWITH_ERROR", account, message };
  }
  const systemFee = p.createNewAccountFeeInSystemContract;
  if (balance - netFee < amount + systemFee) {
    return {
      ok: false,
      code: "CONTRACT_VALIDATE_ERROR",
      account,
      message: "Validate TransferContract error, balance is not sufficient.",
    };
  }
  return {
    ok: true,
    account: staked ?? account,
    netUsage: staked ? netCost : 0n,
    netFee,
    systemFee,
    burnt: netFee + systemFee,
  };
}
