import { randomBytes } from "node:crypto";
import { createKeyPairSignerFromPrivateKeyBytes } from "@solana/kit";
import { SolanaAdapter } from "@/lib/chains/solana/solana-adapter";
import { TronWeb } from "tronweb";
import { api } from "./api";
import { sandboxChain } from "./chains";

async function faucet(sandboxKey: string, chain: "tron" | "solana", addr: string, usdt: string) {
  const reply = await api("POST", "/v1/sandbox/faucet", {
    key: sandboxKey,
    body: { chain, address: addr, amount: usdt },
  });
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
      const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
        config.tokenAddress,
        "transfer(address,uint256)",
        { feeLimit: 50_000_000 },
        params,
        from,
      );
      const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction));
      if (!sent.result) throw new Error(`broadcast refused: ${JSON.stringify(sent)}`);
      return sent.transaction.txID;
    },
  };
}

/**
 * A Solana payer: its own key, funded by the faucet; sends a `transferChecked` built with @solana/kit that
 * creates the recipient's associated token account in the same transaction (the adapter's sendToken,
 * which is exactly what a wallet sends).
 */
export async function solanaPayer(sandboxKey: string, usdt: string) {
  const config = await sandboxChain("solana");
  const key = new Uint8Array(randomBytes(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(key);
  await faucet(sandboxKey, "solana", signer.address, usdt);
  const adapter = new SolanaAdapter("solana", config);
  return {
    address: signer.address as string,
    send: (to: string, units: bigint): Promise<string> => adapter.sendToken(key, to, units),
  };
}
