import { tronToEvmHex } from "@/lib/chains/addresses/tron-address";
import { hexText, type TronNode } from "./tron-node";

/** java-tron's getMaxFeeLimit (15,000 TRX): a higher fee_limit is refused. */
export const MAX_FEE_LIMIT_SUN = 15_000_000_000n;
/**
 * fee_limit = estimated energy × energy price × 130 %: a contract's dynamic energy factor may rise one step (its
 * energy by up to 20 %) in a maintenance period between the estimate and the block, and the limit only caps what
 * may be burnt; the chain charges what was used.
 */
export const FEE_LIMIT_MARGIN_PERCENT = 130n;
/** Bytes a TRC-20 transfer is billed (≈345 with one signature), rounded up: burnt once the free allowance is spent. */
export const TOKEN_TRANSFER_BYTES = 360n;

export interface TronTransferQuote {
  /** Energy the node expects the transfer to use (estimateenergy, else triggerconstantcontract's energy_used). */
  energy: bigint;
  /** getEnergyFee and getTransactionFee, sun per energy and per byte. */
  energyPriceSun: bigint;
  bytePriceSun: bigint;
  /** What the transaction may burn for energy: the estimate at today's price with the margin. */
  feeLimitSun: bigint;
  /** The bandwidth it burns if the sender has neither staked nor free bandwidth left. */
  bandwidthSun: bigint;
}

/** The node's dry run of the transfer fails (a frozen address, a balance short): there is no energy to price. */
export class TransferWouldFail extends Error {
  constructor(readonly reason: string) {
    super(`the node cannot estimate this transfer, its dry run fails: ${reason}`);
  }
}

interface ChainParameters {
  chainParameter?: { key: string; value?: number }[];
}
interface EnergyAnswer {
  energy_required?: number;
  energy_used?: number;
  result?: { result?: boolean; code?: string; message?: string };
}

/**
 * The fee of a TRC-20 `transfer` from `from`, asked of the node: its energy estimate and the chain's current
 * prices. Throws TransferWouldFail when the node's dry run fails (a frozen address, a balance short), and an Error
 * when the limit would pass `capSun` (TRON_MAX_FEE_TRX): the transfer then waits rather than burn blind.
 */
export async function quoteTokenTransfer(
  node: TronNode,
  token: string,
  from: string,
  to: string,
  raw: bigint,
  capSun: bigint,
): Promise<TronTransferQuote> {
  const call = {
    owner_address: from,
    contract_address: token,
    function_selector: "transfer(address,uint256)",
    parameter: abiAddress(to) + raw.toString(16).padStart(64, "0"),
    visible: true,
  };
  const [params, estimated] = await Promise.all([
    node.wallet<ChainParameters>("getchainparameters", {}),
    node.wallet<EnergyAnswer>("estimateenergy", call),
  ]);
  // Nodes started without vm.estimateEnergy answer estimateenergy with an error: the constant call's figure then.
  const answer =
    estimated.energy_required !== undefined
      ? estimated
      : await node.wallet<EnergyAnswer>("triggerconstantcontract", call);
  const energy = answer.energy_required ?? answer.energy_used;
  if (answer.result?.result !== true || energy === undefined)
    throw new TransferWouldFail(`${answer.result?.code ?? ""} ${hexText(answer.result?.message)}`.trim());
  const value = (key: string) => BigInt(params.chainParameter?.find((p) => p.key === key)?.value ?? 0);
  const energyPriceSun = value("getEnergyFee");
  const bytePriceSun = value("getTransactionFee");
  if (energyPriceSun <= 0n) throw new Error("the node reports no getEnergyFee");
  const exact = BigInt(energy) * energyPriceSun * FEE_LIMIT_MARGIN_PERCENT;
  const feeLimitSun = exact / 100n + (exact % 100n > 0n ? 1n : 0n);
  const cap = capSun < MAX_FEE_LIMIT_SUN ? capSun : MAX_FEE_LIMIT_SUN;
  if (feeLimitSun > cap)
    throw new Error(
      `a transfer now needs a fee_limit of ${feeLimitSun} sun (${energy} energy at ${energyPriceSun} sun), ` +
        `above the cap of ${cap} sun (TRON_MAX_FEE_TRX)`,
    );
  return {
    energy: BigInt(energy),
    energyPriceSun,
    bytePriceSun,
    feeLimitSun,
    bandwidthSun: TOKEN_TRANSFER_BYTES * bytePriceSun,
  };
}

/** An address as a 32-byte ABI word: its 20 bytes left-padded. */
const abiAddress = (address: string): string => tronToEvmHex(address).slice(2).toLowerCase().padStart(64, "0");
