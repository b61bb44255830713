/** JSON-RPC errors with Solana's codes, and the parameter checks every method shares. */

export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  preflightFailure: -32002,
  signatureVerificationFailure: -32003,
  blockNotAvailable: -32004,
  longTermStorageSlotSkipped: -32009,
  unsupportedTransactionVersion: -32015,
  minContextSlotNotReached: -32016,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string) => new RpcError(RPC_CODES.invalidParams, message);

export type Commitment = "processed" | "confirmed" | "finalized";
export type Config = Record<string, unknown>;

/** The optional config object at `index` (Solana methods take it last). */
export function configAt(params: unknown[], index: number): Config {
  const value = params[index];
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw invalidParams(`Invalid params: config must be an object`);
  return value as Config;
}

/** A real node defaults to `finalized` when a request names no commitment. */
export function commitmentOf(config: Config, key = "commitment"): Commitment {
  const value = config[key] ?? "finalized";
  // Deprecated aliases a node still maps.
  if (value === "recent") return "processed";
  if (value === "single" || value === "singleGossip") return "confirmed";
  if (value === "max" || value === "root") return "finalized";
  if (value === "processed" || value === "confirmed" || value === "finalized") return value;
  throw invalidParams(
    `Invalid params: unknown variant \`${String(value)}\`, expected one of \`processed\`, \`confirmed\`, \`finalized\``,
  );
}

export function requireString(params: unknown[], index: number, what: string): string {
  const value = params[index];
  if (typeof value !== "string") throw invalidParams(`Invalid params: missing or invalid ${what}`);
  return value;
}

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export function requireAddress(params: unknown[], index: number): string {
  const value = params[index];
  if (typeof value !== "string" || !BASE58_ADDRESS.test(value)) throw invalidParams(`Invalid param: Invalid`);
  return value;
}

export function assertAddress(value: unknown, what = "param"): string {
  if (typeof value !== "string" || !BASE58_ADDRESS.test(value)) throw invalidParams(`Invalid ${what}: Invalid`);
  return value;
}

/** u64 params arrive as numbers, or as strings when they were too large for a double. */
export function toU64(value: unknown, what: string): bigint {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
  if (typeof value === "bigint" && value >= 0n) return value;
  throw invalidParams(`Invalid params: invalid type for ${what}, expected u64`);
}

export function optionalNumber(config: Config, key: string): number | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
    throw invalidParams(`Invalid params: invalid type for ${key}, expected u64`);
  return n;
}

/** `minContextSlot`: a node refuses to answer from a bank older than the caller has already seen. */
export function checkMinContextSlot(config: Config, contextSlot: number): void {
  const min = optionalNumber(config, "minContextSlot");
  if (min !== undefined && contextSlot < min) {
    throw new RpcError(RPC_CODES.minContextSlotNotReached, "Minimum context slot has not been reached", {
      contextSlot,
    });
  }
}
