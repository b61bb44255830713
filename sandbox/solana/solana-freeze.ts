import { address, createKeyPairSignerFromBytes, createSolanaRpc, isSome, type Instruction } from "@solana/kit";
import {
  AccountState,
  fetchMaybeToken,
  fetchMint,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getFreezeAccountInstruction,
  getThawAccountInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { sendAsAuthority } from "./solana-faucet";
import type { SolanaSandboxInfo } from "./solana-sandbox";

/** The sandbox mint cannot freeze: its freeze authority is unset or is not the sandbox mint authority. */
export class NoFreezeAuthorityError extends Error {}

/**
 * Freezes (or thaws) `owner`'s associated token account for the sandbox USDT with the mint's freeze
 * authority, so a transfer to that owner fails on chain (the Token program refuses a frozen destination).
 * Freezing first creates the account if it is missing, paid by the mint authority. A client of the facade,
 * like the faucet. Returns null when the account already was in that state (a missing account is not frozen).
 */
export async function setSolanaFrozen(
  info: SolanaSandboxInfo,
  mintAuthoritySecret: Uint8Array,
  owner: string,
  frozen: boolean,
): Promise<{ signature: string | null }> {
  const rpc = createSolanaRpc(info.rpcUrl);
  const authority = await createKeyPairSignerFromBytes(mintAuthoritySecret);
  const mint = address(info.mint);
  const { data } = await fetchMint(rpc, mint, { commitment: "confirmed" });
  if (!isSome(data.freezeAuthority) || data.freezeAuthority.value !== authority.address)
    throw new NoFreezeAuthorityError(`the sandbox mint ${mint} has no freeze authority the sandbox holds`);

  const ownerAddress = address(owner);
  const [ata] = await findAssociatedTokenPda({ owner: ownerAddress, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const account = await fetchMaybeToken(rpc, ata, { commitment: "confirmed" });
  const isFrozen = account.exists && account.data.state === AccountState.Frozen;
  if (isFrozen === frozen) return { signature: null };
  const instructions: Instruction[] = frozen
    ? [
        getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner: ownerAddress, mint }),
        getFreezeAccountInstruction({ account: ata, mint, owner: authority }),
      ]
    : [getThawAccountInstruction({ account: ata, mint, owner: authority })];
  return { signature: await sendAsAuthority(rpc, authority, instructions) };
}
