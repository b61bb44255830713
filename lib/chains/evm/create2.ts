import { type Address, concatHex, getContractAddress, type Hex, pad } from "viem";

/**
 * The deterministic deployment proxy (CREATE2; Foundry's default deployer): at this address on Ethereum, BNB
 * Smart Chain, Polygon and in every anvil. A contract's address then depends only on its code and arguments,
 * so the service's contracts have one address, known before they are deployed, on every chain; deploying one
 * twice is impossible (the second creation fails, harmlessly).
 */
export const CREATE2_DEPLOYER = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
const SALT = pad("0x00", { size: 32 });

/** A contract's CREATE2 address through the deployer, and the call data that deploys it there. */
export function create2Deployment(initCode: Hex): { address: Address; deployData: Hex } {
  const address = getContractAddress({ opcode: "CREATE2", from: CREATE2_DEPLOYER, salt: SALT, bytecode: initCode });
  return { address, deployData: concatHex([SALT, initCode]) };
}
