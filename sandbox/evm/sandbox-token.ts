import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from "viem";
import artifacts from "../contracts/artifacts.json" with { type: "json" };
import { anvilAccount } from "./anvil-accounts";

export type TokenKind = "no_return" | "standard";

export const TOKEN_ABI: Record<TokenKind, Abi> = {
  no_return: artifacts.SandboxTetherNoReturn.abi as Abi,
  standard: artifacts.SandboxUSDT.abi as Abi,
};

/** Deploys the sandbox USDT (the no-return variant has 6 decimals fixed, like mainnet USDT). */
export async function deploySandboxToken(rpcUrl: string, kind: TokenKind, decimals: number): Promise<Address> {
  const account = anvilAccount();
  const wallet = createWalletClient({ account, transport: http(rpcUrl) });
  const client = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await client.getChainId();
  const chain = {
    id: chainId,
    name: `sandbox-${chainId}`,
    nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  } as const;
  const hash =
    kind === "no_return"
      ? await wallet.deployContract({
          abi: TOKEN_ABI.no_return,
          bytecode: artifacts.SandboxTetherNoReturn.bytecode as Hex,
          chain,
        })
      : await wallet.deployContract({
          abi: TOKEN_ABI.standard,
          bytecode: artifacts.SandboxUSDT.bytecode as Hex,
          args: [decimals],
          chain,
        });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (!receipt.contractAddress) throw new Error("token deployment produced no contract");
  return receipt.contractAddress;
}
