import { Buffer } from "node:buffer";
import { PublicKey, SystemProgram, TransactionInstruction } from "@solana/web3.js";

/**
 * The two instructions of a USDT (SPL token) payment, written by hand so the checkout does not need
 * @solana/spl-token: create the deposit owner's associated token account if it is missing (idempotent),
 * then TransferChecked from the payer's associated token account. The server's SolanaAdapter sends the
 * same pair through @solana-program/token.
 */
// The SPL Token program (the same id as @solana-program/token's TOKEN_PROGRAM_ADDRESS).
export const TOKEN_PROGRAM_ID = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

/** SPL Token instruction index of TransferChecked. */
const TRANSFER_CHECKED = 12;
/** Associated Token Account program instruction index of CreateIdempotent. */
const CREATE_IDEMPOTENT = 1;
const U64_MAX = (1n << 64n) - 1n;

/** The associated token account of `owner` for `mint` (seeds: owner, token program, mint). */
export function associatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [owner.toBytes(), TOKEN_PROGRAM_ID.toBytes(), mint.toBytes()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0];
}

/** TransferChecked's data: [12, amount as u64 little-endian, decimals as u8] (10 bytes). */
export function transferCheckedData(amount: bigint, decimals: number): Uint8Array {
  if (amount <= 0n || amount > U64_MAX)
    throw new RangeError(`amount must be between 1 and 2^64-1 base units; got ${amount}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255)
    throw new RangeError(`decimals must be an integer from 0 to 255; got ${decimals}`);
  const data = new Uint8Array(10);
  data[0] = TRANSFER_CHECKED;
  new DataView(data.buffer).setBigUint64(1, amount, true);
  data[9] = decimals;
  return data;
}

/** Associated Token Account program CreateIdempotent: a no-op when the account already exists. */
export function createAssociatedTokenAccountIdempotentInstruction(
  payer: PublicKey,
  ata: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: ata, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  });
}

export function transferCheckedInstruction(
  source: PublicKey,
  mint: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
  decimals: number,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.from(transferCheckedData(amount, decimals)),
  });
}

/** Both instructions of a payment of `amount` base units of `mint` from `payer` to `depositOwner`. */
export function usdtPaymentInstructions(p: {
  payer: PublicKey;
  depositOwner: PublicKey;
  mint: PublicKey;
  amount: bigint;
  decimals: number;
}): TransactionInstruction[] {
  const destination = associatedTokenAddress(p.depositOwner, p.mint);
  const source = associatedTokenAddress(p.payer, p.mint);
  return [
    createAssociatedTokenAccountIdempotentInstruction(p.payer, destination, p.depositOwner, p.mint),
    transferCheckedInstruction(source, p.mint, destination, p.payer, p.amount, p.decimals),
  ];
}
