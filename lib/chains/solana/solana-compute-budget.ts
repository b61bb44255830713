import {
  appendTransactionMessageInstructions,
  compileTransaction,
  type createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
} from "@solana/kit";
import { MAX_UNIT_LIMIT, unitLimitFor, unitPriceFor, writableAccounts } from "./solana-priority-fee";

export type SolanaRpc = ReturnType<typeof createSolanaRpc>;
export type Blockhash = Awaited<ReturnType<ReturnType<SolanaRpc["getLatestBlockhash"]>["send"]>>["value"];

/** A transaction's compute budget: units it may use, and micro-lamports it offers for each. */
export interface ComputeBudget {
  unitLimit: number;
  unitPrice: bigint;
  /** The price the market asked for, before the cap. */
  wanted: bigint;
  capped: boolean;
}

/** A v0 message on `latest` with the instructions and their compute budget. */
export function budgetedMessage(
  feePayer: KeyPairSigner,
  latest: Blockhash,
  instructions: Instruction[],
  unitLimit: number,
  unitPrice: bigint,
) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
    (m) => setTransactionMessageComputeUnitLimit(unitLimit, m),
    (m) => setTransactionMessageComputeUnitPrice(unitPrice, m),
  );
}

/**
 * Reads the compute budget of these instructions now (docs/CUSTODY.md, "Solana priority fees"): the limit
 * from a simulation of the very message (signatures not checked, blockhash replaced), the price from the
 * recent fees of the accounts it write-locks, at most `cap`.
 */
export async function readComputeBudget(
  rpc: SolanaRpc,
  feePayer: KeyPairSigner,
  latest: Blockhash,
  instructions: Instruction[],
  cap: bigint,
): Promise<ComputeBudget> {
  const probe = compileTransaction(budgetedMessage(feePayer, latest, instructions, MAX_UNIT_LIMIT, 0n));
  const [recent, { value: simulated }] = await Promise.all([
    rpc.getRecentPrioritizationFees(writableAccounts(feePayer.address, instructions)).send(),
    rpc
      .simulateTransaction(getBase64EncodedWireTransaction(probe), {
        encoding: "base64",
        sigVerify: false,
        replaceRecentBlockhash: true,
        commitment: "confirmed",
      })
      .send(),
  ]);
  const { price, wanted, capped } = unitPriceFor(recent, cap);
  return { unitLimit: unitLimitFor(simulated.unitsConsumed), unitPrice: price, wanted, capped };
}
