import { eq } from "drizzle-orm";
import { merchants } from "@/db/schema";
import type { Db } from "@/lib/platform/db/client";
import { MODES, type Mode } from "@/lib/kernel/mode";
import { createApiKey } from "@/lib/identity/api-keys/create-api-key";
import { listApiKeys } from "@/lib/identity/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/identity/api-keys/revoke-api-key";
import { rotateApiKey } from "@/lib/identity/api-keys/rotate-api-key";
import { parseScopes, SANDBOX_CHAINS_SCOPE } from "@/lib/identity/api-keys/scopes";
import { isChain } from "@/lib/chains/chains";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { checkLedgerConsistency } from "@/lib/books/ledger/check-ledger-consistency";
import { listReorgReversals } from "@/lib/money-in/deposits/list-reorg-reversals";
import { formatAmount } from "@/lib/kernel/amount";
import { createMerchant } from "@/lib/identity/merchants/create-merchant";
import { serializeMerchant } from "@/lib/identity/merchants/serialize-merchant";
import { liveXpubsOfSeed } from "@/lib/chains/wallets/live-xpubs";
import { type Command, type CommandResult, type Flags, required, UsageError } from "./cli-flags";
import { CUSTODY_COMMANDS } from "./custody-commands";
import { PAYOUT_COMMANDS } from "./payout-commands";
import { REFUND_COMMANDS } from "./refund-commands";
import { DEPOSIT_COMMANDS } from "./deposit-commands";
import { LISTEN_COMMANDS } from "./listen-command";
import { TRIGGER_COMMANDS } from "./trigger-command";
import { USER_COMMANDS } from "./user-commands";

export { type Command, type CommandResult, type Flags, UsageError } from "./cli-flags";

async function requireMerchant(db: Db, id: string): Promise<void> {
  const [row] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, id));
  if (!row) throw new UsageError(`no merchant ${id}`);
}

/** The CLI's commands: thin adapters from flags to the same domain functions the API and dashboard use. */
export const COMMANDS: Record<string, Command> = {
  async "merchants create"(db, flags) {
    const name = required(flags, "name");
    const email = required(flags, "email");
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`--email "${email}" is not an email address`);
    const result = await createMerchant(db, { name, email });
    return {
      json: result,
      text: [
        `Merchant ${result.merchant.id} (${name})`,
        ...result.keys.map((k) => `  ${k.mode.padEnd(7)} ${k.id}  ${k.secret}`),
        "Secrets are shown once; only their hashes are stored.",
      ],
    };
  },
  async "merchants list"(db) {
    const rows = (await db.select().from(merchants).orderBy(merchants.createdAt)).map(serializeMerchant);
    return { json: { object: "list", data: rows }, text: rows.map((m) => `${m.id}  ${m.name} <${m.email}>`) };
  },
  async "keys create"(db, flags) {
    const merchantId = required(flags, "merchant");
    const mode = required(flags, "mode") as Mode;
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    const scopes = typeof flags.scopes === "string" ? parseScopes(flags.scopes) : undefined;
    if (mode === "live" && scopes?.includes(SANDBOX_CHAINS_SCOPE))
      throw new UsageError(`${SANDBOX_CHAINS_SCOPE} is for sandbox keys: live chains take no test controls`);
    await requireMerchant(db, merchantId);
    const key = await createApiKey(db, { merchantId, mode, scopes });
    return {
      json: key,
      text: [
        `${key.mode} key ${key.id}: ${key.secret}`,
        `scopes: ${key.scopes.join(",")}`,
        "Shown once; store it now.",
      ],
    };
  },
  async "keys rotate"(db, flags) {
    const rotated = await rotateApiKey(db, required(flags, "key"));
    return {
      // No overlap from the CLI: the old key stops at once, so its expiry is not part of the output.
      json: { id: rotated.id, secret: rotated.secret, replaces: rotated.replaces },
      text: [`New key ${rotated.id}: ${rotated.secret}`, `${rotated.replaces} no longer works.`],
    };
  },
  async "keys revoke"(db, flags) {
    const key = await revokeApiKey(db, required(flags, "key"));
    return { json: key, text: [`${key.id} revoked at ${key.revoked_at}`] };
  },
  async "keys list"(db, flags) {
    const merchantId = required(flags, "merchant");
    await requireMerchant(db, merchantId);
    const keys = await listApiKeys(db, merchantId);
    return {
      json: { object: "list", data: keys },
      text: keys.map(
        (k) => `${k.id}  ${k.mode.padEnd(7)} ${k.display}  ${k.status}  last used ${k.last_used_at ?? "never"}`,
      ),
    };
  },
};

Object.assign(COMMANDS, {
  async "balances adjust"(db: Db, flags: Flags): Promise<CommandResult> {
    const merchantId = required(flags, "merchant");
    const mode = required(flags, "mode") as Mode;
    const chain = required(flags, "chain");
    const raw = required(flags, "amount");
    if (!MODES.includes(mode)) throw new UsageError(`--mode must be sandbox or live, got "${mode}"`);
    if (!isChain(chain)) throw new UsageError(`--chain must be one of eth, bnb, polygon, tron, solana, got "${chain}"`);
    const match = /^(-?)(0|[1-9]\d*)\.(\d{6})$/.exec(raw);
    if (!match) throw new UsageError('--amount must have exactly 6 decimals, e.g. "100.000000" or "-5.000000"');
    const amount = (BigInt(match[2]!) * 1_000_000n + BigInt(match[3]!)) * (match[1] ? -1n : 1n);
    if (amount === 0n) throw new UsageError("--amount must not be zero");
    await requireMerchant(db, merchantId);
    const id = await adjustBalance(db, { merchantId, mode, chain, amount, reason: required(flags, "reason") });
    return {
      json: { id, merchant: merchantId, mode, chain, amount: formatAmount(amount) },
      text: [`${id}: ${formatAmount(amount)} USDT on ${chain} (${mode}) for ${merchantId}`],
    };
  },
  async "ledger check"(db: Db): Promise<CommandResult> {
    const problems = await checkLedgerConsistency(db);
    return {
      json: { consistent: problems.length === 0, problems },
      text: problems.length
        ? problems.map((p) => `${p.kind}: ${p.detail}`)
        : ["ledger consistent: every journal balances and every balance matches its entries"],
    };
  },
});

// Deep reorganizations: the operator's record of reversed credits (lib/money-in/deposits/reverse-credited-deposits.ts).
Object.assign(COMMANDS, {
  async "reorgs list"(db: Db, flags: Flags): Promise<CommandResult> {
    const merchantId = typeof flags.merchant === "string" ? flags.merchant.trim() : undefined;
    if (merchantId) await requireMerchant(db, merchantId);
    const rows = await listReorgReversals(db, { merchantId, openOnly: flags.open === true });
    return {
      json: { object: "list", data: rows },
      text: rows.length
        ? rows.map(
            (r) =>
              `${r.id}  ${r.detected_at}  ${r.merchant} ${r.chain} (${r.mode})  ` +
              `${r.amount} USDT: ${r.taken_from_available} from available, ${r.receivable} receivable  ` +
              `${r.settled_at ? `settled ${r.settled_at}` : "OPEN"}  ` +
              `${r.payment ? `payment ${r.payment}` : `deposit ${r.deposit}`} tx ${r.tx_hash}`,
          )
        : ["no reorg reversals"],
    };
  },
});

// Run where the live seed is (the signer): prints the account xpubs the web process gets instead of the
// seed (docs/SECURITY.md, "Key custody"), as lines ready for its environment file.
Object.assign(COMMANDS, {
  async "wallets xpub"(): Promise<CommandResult> {
    const xpubs = liveXpubsOfSeed();
    if (!xpubs) throw new UsageError("no live seed configured: set LIVE_SEED_MNEMONIC or LIVE_SEED_FILE");
    const vars = { LIVE_EVM_XPUB: xpubs.evm, LIVE_TRON_XPUB: xpubs.tron };
    return { json: vars, text: Object.entries(vars).map(([name, value]) => `${name}=${value}`) };
  },
});

Object.assign(
  COMMANDS,
  CUSTODY_COMMANDS,
  PAYOUT_COMMANDS,
  REFUND_COMMANDS,
  DEPOSIT_COMMANDS,
  USER_COMMANDS,
  TRIGGER_COMMANDS,
  LISTEN_COMMANDS,
);
