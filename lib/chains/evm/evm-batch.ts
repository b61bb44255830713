import {
  type Address,
  bytesToHex,
  concatHex,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  type SignedAuthorization,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { SigningKey } from "@/lib/chains/wallets/wallet-roles";
import type { OutboundOptions } from "../outbound-intent";
import { SWEEPER_ABI } from "./deposit-sweeper";

type Batch = NonNullable<OutboundOptions["batch"]>;

/** `sweepMany(token, members, amounts)` on the sweeper contract: one call empties every member of the batch. */
export function batchCall(batch: Batch, token: string): { to: Address; data: Hex; value: bigint } {
  return {
    to: batch.contract as Address,
    data: encodeFunctionData({
      abi: SWEEPER_ABI,
      functionName: "sweepMany",
      args: [token as Address, batch.members.map((m) => m.address as Address), batch.members.map((m) => BigInt(m.raw))],
    }),
    value: 0n,
  };
}

/** An address's code when it delegates to `contract` (EIP-7702: 0xef0100 ‖ address). */
export const delegationCode = (contract: string): Hex => concatHex(["0xef0100", contract as Hex]).toLowerCase() as Hex;

/** Gas when estimation fails: generous per member (a transfer, a cold call) and per authorization (25,000). */
export const batchFallbackGas = (batch: Batch, authorizations: number) =>
  60_000n + 80_000n * BigInt(batch.members.length) + 25_000n * BigInt(authorizations);

/**
 * The EIP-7702 authorizations a batch needs: each member whose code is not yet the delegation to the sweeper
 * contract signs one, at its current nonce and for this chain only (the EVM chains share deposit addresses:
 * chain id 0 would let one authorization serve on all of them). An address delegated once stays delegated, so
 * its next sweeps need none. Local signing; the authorizations travel only inside the signed transaction.
 */
export async function batchAuthorizations(
  client: PublicClient,
  chainId: number,
  batch: Batch,
  keys: SigningKey[] | undefined,
): Promise<SignedAuthorization[]> {
  if (!keys || keys.length !== batch.members.length) throw new Error("a batched sweep needs its members' keys");
  const delegated = delegationCode(batch.contract);
  const states = await Promise.all(
    batch.members.map(async (m) => {
      const code = await client.getCode({ address: m.address as Address });
      if (code?.toLowerCase() === delegated) return null;
      return client.getTransactionCount({ address: m.address as Address, blockTag: "latest" });
    }),
  );
  const authorizations: SignedAuthorization[] = [];
  for (const [i, member] of batch.members.entries()) {
    const key = keys[i]!;
    if (key.address.toLowerCase() !== member.address.toLowerCase())
      throw new Error(`batch member ${i}: the signing key is not ${member.address}`);
    const nonce = states[i];
    if (nonce === null || nonce === undefined) continue; // already delegated to the contract
    authorizations.push(
      await privateKeyToAccount(bytesToHex(key.privateKey)).signAuthorization({
        chainId,
        address: batch.contract as Address,
        nonce,
      }),
    );
  }
  return authorizations;
}
