// `npm run build:contracts`: compiles the Solidity sources with solc (npm, wasm; offline) into committed
// artifacts (ABI + creation bytecode per contract), one per directory:
// - sandbox/contracts/SandboxUSDT.sol → sandbox/contracts/artifacts.json (the sandbox tokens);
// - contracts/DepositSweeper.sol, PayoutBatcher.sol → contracts/artifacts.json (the EIP-7702 delegates of
//   deposit addresses and of the treasury, deployed live too).
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const root = path.resolve(import.meta.dirname, "..");

function build(dir: string, files: string[]): void {
  const sources = Object.fromEntries(
    files.map((file) => [file, { content: fs.readFileSync(path.join(root, dir, file), "utf8") }]),
  );
  const input = {
    language: "Solidity",
    sources,
    // Paris: no PUSH0, so the bytecode runs on any EVM the sandbox may emulate and on every live EVM chain.
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "paris",
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) {
    for (const e of errors) console.error(e.formattedMessage);
    process.exit(1);
  }
  const artifacts = Object.fromEntries(
    files
      .flatMap((file) => Object.entries(output.contracts[file]!))
      .filter(([, c]) => c.evm.bytecode.object.length > 0) // abstract bases and interfaces have no bytecode
      .map(([name, c]) => [name, { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }]),
  );
  fs.writeFileSync(
    path.join(root, dir, "artifacts.json"),
    `${JSON.stringify({ compiler: solc.version(), ...artifacts }, null, 2)}\n`,
  );
  console.log(`${dir}: wrote ${Object.keys(artifacts).join(", ")} (solc ${solc.version()})`);
}

build("sandbox/contracts", ["SandboxUSDT.sol"]);
build("contracts", ["DepositSweeper.sol", "PayoutBatcher.sol"]);
