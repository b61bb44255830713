import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports as toLamports,
  pipe,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { SolanaSandboxInfo } from "./solana-sandbox";

/**
 * The sandbox faucet, as a client: it talks to the facade over JSON-RPC with @solana/kit only, like
 * any wallet would, so it works against whatever serves `info.rpcUrl`.
 */

export type Rpc = ReturnType<typeof createSolanaRpc<string>>;

/** The mint authority pays the ATA rent and fees; it gets topped up from the airdrop faucet below this. */
const AUTHORITY_MIN_LAMPORTS = 100_000_000n;
const AUTHORITY_TOP_UP = 1_000_000_000n;

/** Polls getSignatureStatuses until the signature is confirmed; throws if it failed or never shows up. */
export async function confirmSignature(rpc: Rpc, signature: Signature, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    const status = value[0];
    if (status?.err)
      throw new Error(
        `transaction ${signature} failed: ` +
          `${JSON.stringify(status.err, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`,
      );
    if (status && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`transaction ${signature} not confirmed within ${timeoutMs} ms`);
}

/** `lamports` to `owner` from the airdrop faucet; resolves with the airdrop's signature once confirmed. */
export async function airdropSol(rpcUrl: string, owner: string, lamports: bigint): Promise<string> {
  const rpc = createSolanaRpc(rpcUrl);
  const signature = await rpc.requestAirdrop(address(owner), toLamports(lamports), { commitment: "confirmed" }).send();
  await confirmSignature(rpc, signature);
  return signature;
}

/**
 * Gives `owner` SOL (requestAirdrop) and USDT: creates its associated token account if missing and
 * mints `usdtUnits` (6-decimal base units) into it. Both amounts default to 0 (then only the ATA is made).
 * Returns the signature of the create-ATA + mint transaction.
 */
export async function fundSolanaAddress(
  info: SolanaSandboxInfo,
  mintAuthoritySecret: Uint8Array,
  owner: string,
  opts: { usdtUnits?: bigint; lamports?: bigint } = {},
): Promise<{ signature: string }> {
  const rpc = createSolanaRpc(info.rpcUrl);
  const authority = await createKeyPairSignerFromBytes(mintAuthoritySecret);
  const ownerAddress = address(owner);
  const mint = address(info.mint);

  if ((opts.lamports ?? 0n) > 0n) await airdropSol(info.rpcUrl, owner, opts.lamports!);
  const [ata] = await findAssociatedTokenPda({ owner: ownerAddress, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const instructions: Instruction[] = [
    getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner: ownerAddress, mint }),
  ];
  const units = opts.usdtUnits ?? 0n;
  if (units > 0n)
    instructions.push(getMintToInstruction({ mint, token: ata, mintAuthority: authority, amount: units }));
  return { signature: await sendAsAuthority(rpc, authority, instructions) };
}

/**
 * Sends the mint authority's instructions (it pays fees and any rent, topped up from the airdrop faucet when
 * low) and resolves with the signature once confirmed.
 */
export async function sendAsAuthority(
  rpc: Rpc,
  authority: KeyPairSigner,
  instructions: Instruction[],
): Promise<string> {
  const { value: authorityBalance } = await rpc.getBalance(authority.address, { commitment: "confirmed" }).send();
  if (authorityBalance < AUTHORITY_MIN_LAMPORTS) {
    await confirmSignature(
      rpc,
      await rpc.requestAirdrop(authority.address, toLamports(AUTHORITY_TOP_UP), { commitment: "confirmed" }).send(),
    );
  }
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  // A random compute-unit limit keeps two identical requests in one slot from being one transaction.
  const computeUnits = 100_000 + Math.floor(Math.random() * 100_000);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageComputeUnitLimit(computeUnits, m),
    (m) => setTransactionMessageFeePayerSigner(authority, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const signature = getSignatureFromTransaction(signed);
  await rpc
    .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", preflightCommitment: "confirmed" })
    .send();
  await confirmSignature(rpc, signature);
  return signature;
}
