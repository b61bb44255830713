import { ed25519 } from "@noble/curves/ed25519.js";
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
} from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import { getInitializeMint2Instruction, getMintSize, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { FacadeContext } from "./context";
import { SYSTEM_PROGRAM, TOKEN_PROGRAM } from "./token-layout";
import { decodeWireTransaction } from "./tx-decode";
import { fromBase58, toBase64 } from "./wire";

/**
 * The sandbox's own transactions (faucet airdrops, mint creation),
 * sent through the normal path so they are indexed like any other.
 */

export const USDT_DECIMALS = 6;
/** The faucet starts with 500M SOL: airdrops never run dry in a sandbox. */
export const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;

/** A fresh 64-byte Solana secret key (32-byte seed, then the public key), as `solana-keygen` writes it. */
export function newSecretKey(): Uint8Array {
  const seed = ed25519.utils.randomSecretKey();
  return Uint8Array.from([...seed, ...ed25519.getPublicKey(seed)]);
}

let uniqueness = 0;

export async function submitInternal(
  ctx: FacadeContext,
  feePayer: KeyPairSigner,
  instructions: Instruction[],
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = ctx.ledger.latestBlockhash(ctx.ledger.slot);
  // A distinct compute-unit limit per transaction: two identical airdrops in one slot would otherwise be
  // the same transaction, and the second would be refused as already processed.
  const computeUnits = 200_000 + (uniqueness++ % 1_000_000);
  const message = pipe(
    createTransactionMessage({ version: "legacy" }),
    (m) => setTransactionMessageComputeUnitLimit(computeUnits, m),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: blockhash as Blockhash, lastValidBlockHeight: BigInt(lastValidBlockHeight) },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return ctx.executor.send(
    decodeWireTransaction(toBase64(new Uint8Array(getTransactionEncoder().encode(signed))), "base64"),
    false,
  );
}

export function airdropFrom(ctx: FacadeContext, faucet: KeyPairSigner, to: string, lamports: bigint): Promise<string> {
  return submitInternal(ctx, faucet, [
    getTransferSolInstruction({ source: faucet, destination: to as Address, amount: lamports }),
  ]);
}

/**
 * Creates the 6-decimal USDT mint (classic Token program); the
 * mint authority also holds the freeze authority, like Tether's.
 */
export async function createUsdtMint(
  ctx: FacadeContext,
  payer: KeyPairSigner,
  mint: KeyPairSigner,
  authority: Address,
): Promise<string> {
  const space = getMintSize();
  return submitInternal(ctx, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: ctx.store.minimumBalance(BigInt(space)),
      space,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({
      mint: mint.address,
      decimals: USDT_DECIMALS,
      mintAuthority: authority,
      freezeAuthority: authority,
    }),
  ]);
}

/**
 * Puts back a mint whose account state was lost (registry kept, snapshot gone): same address and
 * authority, zero supply. The mint's own key is never kept, so it cannot be re-created by a transaction.
 */
export function restoreMintAccount(ctx: FacadeContext, mint: string, authority: string): void {
  const data = new Uint8Array(getMintSize());
  const view = new DataView(data.buffer);
  view.setUint32(0, 1, true);
  data.set(fromBase58(authority), 4);
  data[44] = USDT_DECIMALS;
  data[45] = 1;
  view.setUint32(46, 1, true);
  data.set(fromBase58(authority), 50);
  ctx.store.set(mint, {
    lamports: ctx.store.minimumBalance(BigInt(data.length)),
    owner: TOKEN_PROGRAM,
    data,
    executable: false,
  });
}

export function fundFaucet(ctx: FacadeContext, faucet: string): void {
  ctx.store.set(faucet, {
    lamports: FAUCET_LAMPORTS,
    owner: SYSTEM_PROGRAM,
    data: new Uint8Array(),
    executable: false,
  });
}
