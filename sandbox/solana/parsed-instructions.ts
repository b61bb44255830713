import { ATA_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./token-layout";
import { readU32, readU64, toBase58, uiTokenAmount } from "./wire";

/**
 * `jsonParsed` for the instructions a USDT payment flow uses (System transfers and account creation,
 * SPL Token transfers/mints/burns/account setup, Associated Token Account creation), in the node's
 * shapes. Anything else stays "partially decoded" ({programId, accounts, data}), as a node leaves
 * programs it has no parser for.
 */

type Parsed = { program: string; parsed: { type: string; info: Record<string, unknown> } };

function parseSystem(a: string[], d: Uint8Array): Parsed["parsed"] | null {
  if (d.length < 4) return null;
  switch (readU32(d, 0)) {
    case 0:
      return {
        type: "createAccount",
        info: {
          source: a[0],
          newAccount: a[1],
          lamports: readU64(d, 4),
          space: readU64(d, 12),
          owner: toBase58(d.subarray(20, 52)),
        },
      };
    case 1:
      return { type: "assign", info: { account: a[0], owner: toBase58(d.subarray(4, 36)) } };
    case 2:
      return { type: "transfer", info: { source: a[0], destination: a[1], lamports: readU64(d, 4) } };
    default:
      return null;
  }
}

function parseToken(a: string[], d: Uint8Array): Parsed["parsed"] | null {
  const amount = () => readU64(d, 1).toString();
  const checked = () => uiTokenAmount(readU64(d, 1), d[9]!);
  switch (d[0]) {
    case 0:
    case 20: {
      const freeze = d[34] === 1 ? { freezeAuthority: toBase58(d.subarray(35, 67)) } : {};
      const rent = d[0] === 0 ? { rentSysvar: a[1] } : {};
      return {
        type: d[0] === 0 ? "initializeMint" : "initializeMint2",
        info: { mint: a[0], decimals: d[1], mintAuthority: toBase58(d.subarray(2, 34)), ...freeze, ...rent },
      };
    }
    case 1:
      return { type: "initializeAccount", info: { account: a[0], mint: a[1], owner: a[2], rentSysvar: a[3] } };
    case 16:
    case 18:
      return {
        type: d[0] === 16 ? "initializeAccount2" : "initializeAccount3",
        info: { account: a[0], mint: a[1], owner: toBase58(d.subarray(1, 33)) },
      };
    case 3:
      return { type: "transfer", info: { source: a[0], destination: a[1], authority: a[2], amount: amount() } };
    case 12:
      return {
        type: "transferChecked",
        info: { source: a[0], mint: a[1], destination: a[2], authority: a[3], tokenAmount: checked() },
      };
    case 7:
      return { type: "mintTo", info: { mint: a[0], account: a[1], mintAuthority: a[2], amount: amount() } };
    case 14:
      return {
        type: "mintToChecked",
        info: { mint: a[0], account: a[1], mintAuthority: a[2], tokenAmount: checked() },
      };
    case 8:
      return { type: "burn", info: { account: a[0], mint: a[1], authority: a[2], amount: amount() } };
    case 15:
      return { type: "burnChecked", info: { account: a[0], mint: a[1], authority: a[2], tokenAmount: checked() } };
    case 9:
      return { type: "closeAccount", info: { account: a[0], destination: a[1], owner: a[2] } };
    case 21:
      return { type: "getAccountDataSize", info: { mint: a[0] } };
    case 22:
      return { type: "initializeImmutableOwner", info: { account: a[0] } };
    default:
      return null;
  }
}

function parseAta(a: string[], d: Uint8Array): Parsed["parsed"] | null {
  const kind = d.length === 0 ? 0 : d[0];
  if (kind !== 0 && kind !== 1) return null;
  return {
    type: kind === 0 ? "create" : "createIdempotent",
    info: { source: a[0], account: a[1], wallet: a[2], mint: a[3], systemProgram: a[4], tokenProgram: a[5] },
  };
}

/** The parsed instruction, or the partially decoded one for programs without a parser. */
export function parseInstruction(programId: string, accounts: string[], data: Uint8Array, stackHeight: number | null) {
  let parsed: Parsed | null = null;
  try {
    if (programId === SYSTEM_PROGRAM) parsed = wrap("system", parseSystem(accounts, data));
    else if (programId === TOKEN_PROGRAM || programId === TOKEN_2022_PROGRAM)
      parsed = wrap(programId === TOKEN_PROGRAM ? "spl-token" : "spl-token-2022", parseToken(accounts, data));
    else if (programId === ATA_PROGRAM) parsed = wrap("spl-associated-token-account", parseAta(accounts, data));
  } catch {
    parsed = null; // malformed data: the node falls back to partially decoded too
  }
  if (parsed) return { ...parsed, programId, stackHeight };
  return { accounts, data: toBase58(data), programId, stackHeight };
}

function wrap(program: string, parsed: Parsed["parsed"] | null): Parsed | null {
  return parsed && { program, parsed };
}
