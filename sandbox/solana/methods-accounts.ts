import { accountAt, envelope, formatAccount, readSlot, type FacadeContext, type RpcMethod } from "./context";
import { assertAddress, configAt, invalidParams, requireAddress, type Config } from "./rpc-util";
import { decodeMint, decodeTokenAccount, isTokenProgram } from "./token-layout";
import { fromBase58, fromBase64, uiTokenAmount } from "./wire";

/** Account reads: balances, raw accounts, SPL Token views and program scans. */

const MAX_MULTIPLE_ACCOUNTS = 100;

function tokenAccountsOf(
  ctx: FacadeContext,
  program: string,
  slot: number,
  match: (owner: string, mint: string, delegate: string | null) => boolean,
  config: Config,
) {
  const readAt = slot >= ctx.ledger.slot ? null : slot;
  return ctx.store
    .programAccounts(program, readAt)
    .filter(([, state]) => {
      const token = decodeTokenAccount(state.owner, state.data);
      return token !== null && match(token.owner, token.mint, token.delegate);
    })
    .map(([pubkey, state]) => ({ account: formatAccount(ctx, state, config), pubkey }));
}

/** The owner/delegate filter `{mint}` or `{programId}`, as the node checks it. */
function tokenFilter(ctx: FacadeContext, filter: unknown, slot: number): { program: string; mint: string | null } {
  const f = (filter ?? {}) as { mint?: unknown; programId?: unknown };
  if (typeof f.mint === "string") {
    const mint = accountAt(ctx, assertAddress(f.mint), slot);
    if (!mint || !decodeMint(mint.owner, mint.data)) throw invalidParams("Invalid param: could not find mint");
    return { program: mint.owner, mint: f.mint };
  }
  if (typeof f.programId === "string") {
    if (!isTokenProgram(f.programId)) throw invalidParams("Invalid param: unrecognized Token program id");
    return { program: f.programId, mint: null };
  }
  throw invalidParams("Invalid params: expected a filter object with `mint` or `programId`");
}

export const accountMethods: Record<string, RpcMethod> = {
  getBalance: (params, ctx) => {
    const address = requireAddress(params, 0);
    const slot = readSlot(ctx, configAt(params, 1));
    return envelope(slot, accountAt(ctx, address, slot)?.lamports ?? 0n);
  },

  getAccountInfo: (params, ctx) => {
    const address = requireAddress(params, 0);
    const config = configAt(params, 1);
    const slot = readSlot(ctx, config);
    const account = accountAt(ctx, address, slot);
    return envelope(slot, account && formatAccount(ctx, account, config));
  },

  getMultipleAccounts: (params, ctx) => {
    const addresses = params[0];
    if (!Array.isArray(addresses)) throw invalidParams("Invalid params: expected an array of addresses");
    if (addresses.length > MAX_MULTIPLE_ACCOUNTS)
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    const config = configAt(params, 1);
    const slot = readSlot(ctx, config);
    return envelope(
      slot,
      addresses.map((a) => {
        const account = accountAt(ctx, assertAddress(a), slot);
        return account && formatAccount(ctx, account, config);
      }),
    );
  },

  getTokenAccountBalance: (params, ctx) => {
    const address = requireAddress(params, 0);
    const slot = readSlot(ctx, configAt(params, 1));
    const account = accountAt(ctx, address, slot);
    if (!account) throw invalidParams("Invalid param: could not find account");
    const token = decodeTokenAccount(account.owner, account.data);
    const decimals = token && ctx.store.decimalsOf(token.mint);
    if (!token || decimals === undefined || decimals === null)
      throw invalidParams("Invalid param: not a Token account");
    return envelope(slot, uiTokenAmount(token.amount, decimals));
  },

  getTokenSupply: (params, ctx) => {
    const address = requireAddress(params, 0);
    const slot = readSlot(ctx, configAt(params, 1));
    const account = accountAt(ctx, address, slot);
    const mint = account && decodeMint(account.owner, account.data);
    if (!mint) throw invalidParams("Invalid param: not a Token mint");
    return envelope(slot, uiTokenAmount(mint.supply, mint.decimals));
  },

  getTokenAccountsByOwner: (params, ctx) => {
    const owner = requireAddress(params, 0);
    const config = configAt(params, 2);
    const slot = readSlot(ctx, config);
    const { program, mint } = tokenFilter(ctx, params[1], slot);
    return envelope(
      slot,
      tokenAccountsOf(ctx, program, slot, (o, m) => o === owner && (mint === null || m === mint), config),
    );
  },

  getTokenAccountsByDelegate: (params, ctx) => {
    const delegate = requireAddress(params, 0);
    const config = configAt(params, 2);
    const slot = readSlot(ctx, config);
    const { program, mint } = tokenFilter(ctx, params[1], slot);
    return envelope(
      slot,
      tokenAccountsOf(ctx, program, slot, (_o, m, d) => d === delegate && (mint === null || m === mint), config),
    );
  },

  getProgramAccounts: (params, ctx) => {
    const program = requireAddress(params, 0);
    const config = configAt(params, 1);
    const slot = readSlot(ctx, config);
    const filters = (config.filters ?? []) as Array<{
      dataSize?: number;
      memcmp?: { offset: number; bytes: string; encoding?: string };
    }>;
    const matches = (data: Uint8Array) =>
      filters.every((f) => {
        if (f.dataSize !== undefined) return data.length === Number(f.dataSize);
        if (!f.memcmp) throw invalidParams("Invalid params: unsupported filter");
        const bytes = f.memcmp.encoding === "base64" ? fromBase64(f.memcmp.bytes) : fromBase58(f.memcmp.bytes);
        const offset = Number(f.memcmp.offset);
        return offset + bytes.length <= data.length && bytes.every((b, i) => data[offset + i] === b);
      });
    const value = ctx.store
      .programAccounts(program, slot >= ctx.ledger.slot ? null : slot)
      .filter(([, state]) => matches(state.data))
      .map(([pubkey, state]) => ({ account: formatAccount(ctx, state, config), pubkey }));
    return config.withContext ? envelope(slot, value) : value;
  },
};
