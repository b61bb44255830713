// `npm run build:contracts`: compiles sandbox/contracts/SandboxUSDT.sol with solc (npm, wasm; offline) into
// the committed artifact sandbox/contracts/artifacts.json (ABI + creation bytecode per contract).
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const dir = path.resolve(import.meta.dirname, "../sandbox/contracts");
const source = fs.readFileSync(path.join(dir, "SandboxUSDT.sol"), "utf8");
const input = {
  language: "Solidity",
  sources: { "SandboxUSDT.sol": { content: source } },
  // Paris: no PUSH0, so the bytecode runs on any EVM the sandbox may emulate.
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
  Object.entries(output.contracts["SandboxUSDT.sol"]!)
    .filter(([, c]) => c.evm.bytecode.object.length > 0) // abstract bases have no bytecode of their own
    .map(([name, c]) => [name, { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }]),
);
fs.writeFileSync(
  path.join(dir, "artifacts.json"),
  `${JSON.stringify({ compiler: solc.version(), ...artifacts }, null, 2)}\n`,
);
console.log(`wrote ${Object.keys(artifacts).join(", ")} (solc ${solc.version()})`);
