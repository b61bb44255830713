import { readU32, readU64, toBase58, uiTokenAmount } from "./wire";

/** SPL Token account and mint layouts, read by hand so the facade needs no program client. */

export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
export const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const LOOKUP_TABLE_PROGRAM = "AddressLookupTab1e1111111111111111111111111";

export const isTokenProgram = (owner: string) => owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;

const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;
/** Token-2022 accounts with extensions are longer; byte 165 then says what they are (1 mint, 2 account). */
const ACCOUNT_TYPE_OFFSET = 165;

export interface TokenAccountData {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: "uninitialized" | "initialized" | "frozen";
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: string | null;
}

export interface MintData {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

function optionPubkey(data: Uint8Array, offset: number): string | null {
  return readU32(data, offset) === 1 ? toBase58(data.subarray(offset + 4, offset + 36)) : null;
}

function isAccountLayout(data: Uint8Array): boolean {
  return data.length === TOKEN_ACCOUNT_SIZE || (data.length > TOKEN_ACCOUNT_SIZE && data[ACCOUNT_TYPE_OFFSET] === 2);
}

/** Decodes an initialized (or frozen) token account; null for anything else. */
export function decodeTokenAccount(owner: string, data: Uint8Array): TokenAccountData | null {
  if (!isTokenProgram(owner) || !isAccountLayout(data)) return null;
  const stateByte = data[108]!;
  if (stateByte === 0 || stateByte > 2) return null;
  return {
    mint: toBase58(data.subarray(0, 32)),
    owner: toBase58(data.subarray(32, 64)),
    amount: readU64(data, 64),
    delegate: optionPubkey(data, 72),
    state: stateByte === 2 ? "frozen" : "initialized",
    isNative: readU32(data, 109) === 1 ? readU64(data, 113) : null,
    delegatedAmount: readU64(data, 121),
    closeAuthority: optionPubkey(data, 129),
  };
}

export function decodeMint(owner: string, data: Uint8Array): MintData | null {
  if (!isTokenProgram(owner)) return null;
  if (data.length !== MINT_SIZE && !(data.length > ACCOUNT_TYPE_OFFSET && data[ACCOUNT_TYPE_OFFSET] === 1)) return null;
  if (data[45] !== 1) return null;
  return {
    mintAuthority: optionPubkey(data, 0),
    supply: readU64(data, 36),
    decimals: data[44]!,
    isInitialized: true,
    freezeAuthority: optionPubkey(data, 46),
  };
}

/** The `jsonParsed` form of a token account or mint, or null when the node would fall back to base64. */
export function parsedTokenData(owner: string, data: Uint8Array, decimalsOf: (mint: string) => number | undefined) {
  const program = owner === TOKEN_PROGRAM ? "spl-token" : "spl-token-2022";
  const account = decodeTokenAccount(owner, data);
  if (account) {
    const decimals = decimalsOf(account.mint);
    if (decimals === undefined) return null;
    const info: Record<string, unknown> = {
      isNative: account.isNative !== null,
      mint: account.mint,
      owner: account.owner,
      state: account.state,
      tokenAmount: uiTokenAmount(account.amount, decimals),
    };
    if (account.delegate) {
      info.delegate = account.delegate;
      info.delegatedAmount = uiTokenAmount(account.delegatedAmount, decimals);
    }
    if (account.isNative !== null) info.rentExemptReserve = uiTokenAmount(account.isNative, 9);
    if (account.closeAuthority) info.closeAuthority = account.closeAuthority;
    return { program, parsed: { info, type: "account" }, space: data.length };
  }
  const mint = decodeMint(owner, data);
  if (!mint) return null;
  const info = {
    decimals: mint.decimals,
    freezeAuthority: mint.freezeAuthority,
    isInitialized: true,
    mintAuthority: mint.mintAuthority,
    supply: mint.supply.toString(),
  };
  return { program, parsed: { info, type: "mint" }, space: data.length };
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: ReturnType<typeof uiTokenAmount>;
}

/** The `preTokenBalances`/`postTokenBalances` entries: every token account among the transaction's keys. */
export function tokenBalances(
  accounts: ReadonlyArray<{ owner: string; data: Uint8Array } | null>,
  decimalsOf: (mint: string) => number | undefined,
): TokenBalance[] {
  const out: TokenBalance[] = [];
  accounts.forEach((account, accountIndex) => {
    if (!account) return;
    const token = decodeTokenAccount(account.owner, account.data);
    const decimals = token && decimalsOf(token.mint);
    if (!token || decimals === undefined || decimals === null) return;
    out.push({
      accountIndex,
      mint: token.mint,
      owner: token.owner,
      programId: account.owner,
      uiTokenAmount: uiTokenAmount(token.amount, decimals),
    });
  });
  return out;
}
