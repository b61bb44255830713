import type { AccountState, AccountStore } from "./account-store";
import type { Executor } from "./executor";
import type { Ledger } from "./ledger-state";
import { checkMinContextSlot, commitmentOf, invalidParams, type Config } from "./rpc-util";
import { parsedTokenData } from "./token-layout";
import { toBase58, toBase64, U64_MAX } from "./wire";

/** What every RPC method gets, and the response shapes they share. */

/** The Agave version the facade claims (LiteSVM 1.5 runs Agave 3.x programs and rules). */
export const SOLANA_CORE_VERSION = "3.0.0";
export const FEATURE_SET = 3294202862;

export interface FacadeContext {
  store: AccountStore;
  ledger: Ledger;
  executor: Executor;
  genesisHash: string;
  /** Sends lamports from the sandbox faucet through an ordinary, recorded transfer. */
  airdrop(to: string, lamports: bigint): Promise<string>;
  /** Produces slots at once (the sandbox's "mine": e.g. to finalize without waiting 32 slots). */
  advanceSlots(count: number): void;
}

export type RpcMethod = (params: unknown[], ctx: FacadeContext) => unknown;

/** `{context: {apiVersion, slot}, value}`, the envelope of every bank-reading method. */
export function envelope<T>(slot: number, value: T) {
  return { context: { apiVersion: SOLANA_CORE_VERSION, slot }, value };
}

/** The slot a request reads at: its commitment's bank, after the `minContextSlot` check. */
export function readSlot(ctx: FacadeContext, config: Config, key = "commitment"): number {
  const slot = ctx.ledger.commitmentSlot(commitmentOf(config, key));
  checkMinContextSlot(config, slot);
  return slot;
}

/** Account state at a read slot: the newest for the tip, reconstructed for older banks. */
export function accountAt(ctx: FacadeContext, address: string, slot: number): AccountState | null {
  return slot >= ctx.ledger.slot ? ctx.store.get(address) : ctx.store.at(address, slot);
}

const MAX_BASE58_BYTES = 128;

/** An account in the node's UiAccount shape, honouring `encoding` and `dataSlice`. */
export function formatAccount(ctx: FacadeContext, account: AccountState, config: Config) {
  const encoding = config.encoding ?? "binary";
  const slice = config.dataSlice as { offset?: number; length?: number } | undefined;
  const data = slice
    ? account.data.subarray(slice.offset ?? 0, (slice.offset ?? 0) + (slice.length ?? 0))
    : account.data;
  let encoded: unknown;
  if (encoding === "jsonParsed") {
    encoded = (!slice && parsedTokenData(account.owner, account.data, ctx.store.decimalsOf)) || [
      toBase64(data),
      "base64",
    ];
  } else if (encoding === "base64") {
    encoded = [toBase64(data), "base64"];
  } else if (encoding === "base58" || encoding === "binary") {
    if (data.length > MAX_BASE58_BYTES)
      throw invalidParams(
        `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
      );
    encoded = encoding === "binary" ? toBase58(data) : [toBase58(data), "base58"];
  } else if (encoding === "base64+zstd") {
    throw invalidParams("Invalid params: base64+zstd is not supported by the sandbox facade; use base64");
  } else {
    throw invalidParams(
      `Invalid params: unknown variant \`${String(encoding)}\`, ` +
        "expected one of `binary`, `base58`, `base64`, `jsonParsed`, `base64+zstd`",
    );
  }
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.owner,
    rentEpoch: U64_MAX,
    space: account.data.length,
  };
}
