import { getAddress } from "viem";
import type { SandboxChainRegistration } from "@/lib/chains/register-sandbox-chain";
import { encryptSecret } from "@/lib/platform/secrets/encryption";
import { masterKey } from "@/lib/platform/secrets/master-key";
import type { SandboxChainInfo } from "./evm/evm-sandbox";
import type { SolanaSandboxInfo } from "./solana/solana-sandbox";
import { TRON_SANDBOX_CHAIN_ID, type TronSandboxInfo } from "./tron/tron-sandbox";

/** Purpose bound to the encrypted Solana mint authority (lib/chains/sandbox reads it back to mint test USDT). */
export const SOLANA_MINT_AUTHORITY_PURPOSE = "sandbox:solana-mint-authority";

/** How each running sandbox chain is recorded in `sandbox_chains` for web and worker processes. */
export function evmRegistration(info: SandboxChainInfo, blockTimeMs: number): SandboxChainRegistration {
  // Checksummed, as wallets and explorers show contract addresses.
  return {
    chain: info.chain,
    rpcUrl: info.rpcUrl,
    chainId: info.chainId,
    tokenAddress: getAddress(info.token),
    decimals: info.decimals,
    blockTimeMs,
    emulated: false,
  };
}

export function tronRegistration(info: TronSandboxInfo): SandboxChainRegistration {
  return {
    chain: "tron",
    rpcUrl: info.fullHost,
    chainId: TRON_SANDBOX_CHAIN_ID,
    tokenAddress: info.token,
    decimals: info.decimals,
    blockTimeMs: info.blockTimeMs,
    emulated: true,
    extra: { jsonRpcUrl: info.jsonRpcUrl, anvilRpcUrl: info.anvilRpcUrl, finalityDepth: String(info.solidLag) },
  };
}

/** The mint authority (a sandbox-only key) is stored encrypted under the master key, like other secrets. */
export function solanaRegistration(info: SolanaSandboxInfo, mintAuthoritySecret: Uint8Array): SandboxChainRegistration {
  return {
    chain: "solana",
    rpcUrl: info.rpcUrl,
    chainId: null,
    tokenAddress: info.mint,
    decimals: info.decimals,
    blockTimeMs: info.slotMs,
    emulated: true,
    extra: {
      mintAuthority: encryptSecret(masterKey(), Buffer.from(mintAuthoritySecret), SOLANA_MINT_AUTHORITY_PURPOSE),
      finalityDepth: String(info.finalityDepth),
    },
  };
}
