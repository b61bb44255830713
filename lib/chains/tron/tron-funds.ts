import type { TronNode } from "./tron-node";

/**
 * Whether a role's Tron transfer can be paid for before it is signed (docs/CUSTODY.md, "Tron"). java-tron takes a
 * TRC-20 transfer from an account holding less TRX than its fee_limit and runs it until the TRX is gone: it fails
 * OUT_OF_ENERGY and still burns what it used. So the treasury and the sweeper sign a transfer only when their TRX,
 * less what their transfers already on their way may still take, covers what this one may burn; otherwise it
 * waits (the sandbox's faucet, or the operator, tops the role up).
 */

/**
 * Bandwidth one transaction may burn when the free allowance is spent (≈345 bytes at mainnet's 1,000 sun), rounded
 * up.
 */
export const BANDWIDTH_ALLOWANCE_SUN = 400_000n;
/**
 * A TRX transfer to an account that does not exist yet creates it: 1 TRX (getCreateNewAccountFeeInSystemContract)
 * + 0.1 TRX.
 */
export const ACCOUNT_CREATION_SUN = 1_100_000n;

interface SignedTronTx {
  raw_data: { fee_limit?: number; contract: { type: string; parameter: { value: { amount?: number } } }[] };
}

/** The most TRX a signed transaction may take from its signer: its fee limit, the TRX it sends, and bandwidth. */
export function maxTronCost(signedTx: string): bigint {
  const { raw_data: raw } = JSON.parse(signedTx) as SignedTronTx;
  const contract = raw.contract[0];
  const sent =
    contract?.type === "TransferContract" ? BigInt(contract.parameter.value.amount ?? 0) + ACCOUNT_CREATION_SUN : 0n;
  return BigInt(raw.fee_limit ?? 0) + sent + BANDWIDTH_ALLOWANCE_SUN;
}

/** The signer's TRX does not cover the transfer: it is not signed, and waits for a top-up. */
export class SignerShortOfTrx extends Error {
  constructor(
    readonly address: string,
    readonly balanceSun: bigint,
    readonly reservedSun: bigint,
    readonly needsSun: bigint,
  ) {
    super(
      `${address} holds ${balanceSun} sun, ${reservedSun} of it for its transfers on their way, and this transfer ` +
        `may burn ${needsSun}: it waits until the account holds more TRX`,
    );
  }
}

/** Throws SignerShortOfTrx unless `address` holds `needsSun` beyond `reservedSun`. */
export async function assertTronFunds(node: TronNode, address: string, needsSun: bigint, reservedSun: bigint) {
  const account = await node.wallet<{ balance?: number }>("getaccount", { address, visible: true });
  const balance = BigInt(account.balance ?? 0);
  if (balance - reservedSun < needsSun) throw new SignerShortOfTrx(address, balance, reservedSun, needsSun);
}
