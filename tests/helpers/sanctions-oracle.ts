import fs from "node:fs";
import path from "node:path";
import solc from "solc";
import type { Abi, Address, Hex, PublicClient, WalletClient } from "viem";

/** tests/fixtures/SanctionsOracle.sol compiled (solc, offline): its ABI, creation and runtime code. */
function compileSanctionsOracle() {
  const file = "SanctionsOracle.sol";
  const source = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures", file), "utf8");
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { [file]: { content: source } },
        settings: {
          evmVersion: "paris",
          outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
        },
      }),
    ),
  );
  return output.contracts[file].SanctionsOracle as {
    abi: Abi;
    evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
  };
}

/**
 * The oracle's runtime code, to put at an address with `anvil_setCode`: it lists nobody (its owner, an
 * immutable, is the zero address there, so nobody can list anyone either).
 */
export function sanctionsOracleRuntime(): Hex {
  return `0x${compileSanctionsOracle().evm.deployedBytecode.object}`;
}

/** Compiles tests/fixtures/SanctionsOracle.sol and deploys it from `wallet`'s account. */
export async function deploySanctionsOracle(client: PublicClient, wallet: WalletClient) {
  const built = compileSanctionsOracle();
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
