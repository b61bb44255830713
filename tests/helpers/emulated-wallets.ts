import { randomBytes } from "node:crypto";
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from "@solana/kit";
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { TronWeb } from "tronweb";
import { api } from "./api";
import { sandboxChain } from "./chains";

async function faucet(sandboxKey: string, chain: "tron" | "solana", addr: string, usdt: string) {
  const reply = await api("POST", "/v1/sandbox/faucet", { key: sandboxKey, body: { chain, address: addr, amount: usdt } });
  if (reply.status !== 200) throw new Error(`faucet: ${reply.text}`);
}

/** A TronLink-like payer: its own key, funded by the faucet; sends a TRC-20 transfer signed by TronWeb. */
export async function tronPayer(sandboxKey: string, usdt: string) {
  const config = await sandboxChain("tron");
  const privateKey = randomBytes(32).toString("hex");
  const tronWeb = new TronWeb({ fullHost: config.rpcUrl, privateKey });
  const from = tronWeb.address.fromPrivateKey(privateKey) as string;
  await faucet(sandboxKey, "tron", from, usdt);
  return {
    address: from,
    async send(to: string, units: bigint): Promise<string> {
      const params = [
        { type: "address", value: to },
        { type: "uint256", value: units.toString() },
      ];
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(config.tokenAddress, "transfer(address,uint256)", { feeLimit: 50_000_000 }, params, from);
      const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction));
      if (!sent.result) throw new Error(`broadcast refused: ${JSON.stringify(sent)}`);
      return sent.transaction.txID;
    },
  };
}

/**
 * A wallet-adapter-like Solana payer: its own key, funded by the faucet; sends a `transferChecked` with
 * @solana/kit, creating the recipient's associated token account in the same transaction.
 */
export async function solanaPayer(sandboxKey: string, usdt: string) {
  const config = await sandboxChain("solana");
  const rpc = createSolanaRpc(config.rpcUrl);
  const signer = await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(randomBytes(32)));
  await faucet(sandboxKey, "solana", signer.address, usdt);
  const mint = address(config.tokenAddress);
  const ata = async (owner: string) => (await findAssociatedTokenPda({ owner: address(owner), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
  return {
    address: signer.address as string,
    async send(to: string, units: bigint): Promise<string> {
      const [source, destination] = await Promise.all([ata(signer.address), ata(to)]);
      const { value: latest } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(signer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata: destination, owner: address(to), mint }),
              getTransferCheckedInstruction({ source, mint, destination, authority: signer, amount: units, decimals: 6 }),
            ],
            m,
          ),
      );
      const signed = await signTransactionMessageWithSigners(message);
      await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", preflightCommitment: "confirmed" }).send();
      return getSignatureFromTransaction(signed);
    },
  };
}
