import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { getDb } from "@/lib/platform/db/client";

/**
 * A sandbox eth registered with an RPC nobody answers, and a merchant: the pages and streams read chain
 * configuration from the sandbox registry, so no chain needs to run for benches of the web alone.
 */
export async function offlineEthMerchant() {
  await registerSandboxChain(getDb(), {
    chain: "eth",
    rpcUrl: "http://127.0.0.1:1",
    chainId: 900001,
    tokenAddress: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    decimals: 6,
    blockTimeMs: 1000,
    emulated: false,
  });
  const { merchant } = await createMerchant(getDb(), { name: "Bench Café", email: "bench@example.com" });
  return { merchant, owner: { merchantId: merchant.id, mode: "sandbox" as const } };
}
