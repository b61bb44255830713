import fs from "node:fs";
import path from "node:path";
import solc from "solc";
import type { Abi, Address, Hex, PublicClient, WalletClient } from "viem";

/** Compiles tests/fixtures/SanctionsOracle.sol (solc, offline) and deploys it from `wallet`'s account. */
export async function deploySanctionsOracle(client: PublicClient, wallet: WalletClient) {
  const file = "SanctionsOracle.sol";
  const source = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures", file), "utf8");
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { [file]: { content: source } },
        settings: { evmVersion: "paris", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  );
  const built = output.contracts[file].SanctionsOracle as { abi: Abi; evm: { bytecode: { object: string } } };
  const hash = await wallet.deployContract({
    abi: built.abi,
    bytecode: `0x${built.evm.bytecode.object}` as Hex,
    account: wallet.account!,
    chain: wallet.chain,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  const address = receipt.contractAddress as Address;
  return {
    address,
    list: async (addrs: string[]) =>
      client.waitForTransactionReceipt({
        hash: await wallet.writeContract({
          address,
          abi: built.abi,
          functionName: "addToSanctionsList",
          args: [addrs],
          account: wallet.account!,
          chain: wallet.chain,
        }),
        pollingInterval: 100,
      }),
  };
}
