import { TronWeb } from "tronweb";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { anvilRpc, toQuantity } from "./anvil-rpc";
import { WEI_PER_SUN } from "./context";
import type { TronSandboxInfo } from "./sandbox-info";

/**
 * The token's owner is anvil's dev account 0 (it deployed the
 * token and holds its mint); on Tron it is just another key.
 */
export function tokenOwner() {
  const account = anvilAccount();
  return { address: account.address, privateKey: Buffer.from(account.getHdKey().privateKey!).toString("hex") };
}

/**
 * Sends a transaction the faucet builds, once. Two identical ones built in the same millisecond (same recipient,
 * amount, block reference and timestamp) are one transaction to Tron, refused as DUP_TRANSACTION_ERROR; a faucet
 * asked twice means two, so it builds again with a later timestamp.
 */
export async function sendDistinct(
  what: string,
  send: () => Promise<{ result?: boolean; code?: string; transaction: { txID: string } }>,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const sent = await send();
    if (sent.result) return sent.transaction.txID;
    if (sent.code !== "DUP_TRANSACTION_ERROR" || attempt === 5)
      throw new Error(`${what} refused: ${JSON.stringify(sent)}`);
    await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
  }
}

/**
 * A signed TriggerSmartContract from the token owner through the facade (a real Tron transaction with a
 * Tron txID), e.g. `mint(address,uint256)`; resolves with the txID once broadcast, not yet mined.
 */
export async function callAsTokenOwner(
  info: TronSandboxInfo,
  fn: string,
  parameters: { type: string; value: string }[],
): Promise<string> {
  await topUpFaucet(info, 0n);
  const tronWeb = new TronWeb({ fullHost: info.fullHost, privateKey: tokenOwner().privateKey });
  return sendDistinct(fn, async () => {
    const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
      info.token,
      fn,
      { feeLimit: 100_000_000 },
      parameters,
    );
    return tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction));
  });
}

/** TRX the faucet keeps above what it sends, for the fees it pays (account creation, bandwidth, a mint's energy). */
const FAUCET_FEE_RESERVE_SUN = 1_000_000_000n;

/**
 * Gives the faucet (the token owner) `sun` plus its fee reserve when it holds less; anvil's 10,000 ETH are only
 * 10,000 TRX at 1 sun = 10^12 wei, and every faucet transaction pays Tron's fees.
 */
export async function topUpFaucet(info: TronSandboxInfo, sun: bigint): Promise<void> {
  const rpc = anvilRpc(info.anvilRpcUrl);
  const faucet = tokenOwner().address;
  const balance = BigInt(await rpc<string>("eth_getBalance", [faucet, "latest"]));
  const need = (sun + FAUCET_FEE_RESERVE_SUN) * WEI_PER_SUN;
  if (balance < need) await rpc("anvil_setBalance", [faucet, toQuantity(balance + need)]);
}

/** Resolves once the transaction is in a block; throws if it failed there or is not mined in time. */
export async function waitMined(info: TronSandboxInfo, txID: string): Promise<void> {
  const deadline = Date.now() + 30_000 + 10 * info.blockTimeMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${info.fullHost}/wallet/gettransactioninfobyid`, {
      method: "POST",
      body: JSON.stringify({ value: txID }),
    });
    const tx = (await res.json()) as { blockNumber?: number; receipt?: { result?: string } };
    if (tx.blockNumber !== undefined) {
      if (tx.receipt?.result && tx.receipt.result !== "SUCCESS")
        throw new Error(`transaction ${txID} failed: ${tx.receipt.result}`);
      return;
    }
    await new Promise((r) => setTimeout(r, Math.min(100, info.blockTimeMs / 2)));
  }
  throw new Error(`transaction ${txID} was not mined`);
}
