import { address, type Address, type Instruction, type TransactionSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  findAssociatedTokenPda,
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { OutboundIntent } from "../outbound-intent";

export interface SolanaToken {
  mint: Address;
  decimals: number;
}

export const ataOf = async (owner: string, mint: Address): Promise<Address> =>
  (await findAssociatedTokenPda({ owner: address(owner), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

/**
 * The instructions of an intent (docs/CUSTODY.md, "Solana"):
 * - token: create the recipient's associated token account if missing (idempotent, rent paid by the fee payer),
 *   then transferChecked from the signer's associated token account;
 * - native: a system transfer of lamports;
 * - `options.closeAccount`: then close the signer's token account, its rent going to `options.rentTo` (a sweep
 *   empties a deposit account and takes its rent back to the treasury).
 */
export async function intentInstructions(
  intent: OutboundIntent,
  token: SolanaToken,
  signer: TransactionSigner,
  feePayer: TransactionSigner,
): Promise<Instruction[]> {
  const to = address(intent.toAddress);
  const instructions: Instruction[] = [];
  const source = await ataOf(signer.address, token.mint);
  if (intent.asset === "native") {
    instructions.push(getTransferSolInstruction({ source: signer, destination: to, amount: intent.rawAmount }));
  } else {
    const destination = await ataOf(to, token.mint);
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: destination, owner: to, mint: token.mint }),
      getTransferCheckedInstruction({
        source,
        mint: token.mint,
        destination,
        authority: signer,
        amount: intent.rawAmount,
        decimals: token.decimals,
      }),
    );
  }
  if (intent.options.closeAccount) {
    if (!intent.options.rentTo) throw new Error(`outbound ${intent.id}: closeAccount needs options.rentTo`);
    instructions.push(
      getCloseAccountInstruction({ account: source, destination: address(intent.options.rentTo), owner: signer }),
    );
  }
  return instructions;
}
