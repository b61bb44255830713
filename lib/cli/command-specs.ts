/**
 * What each CLI command accepts, for the parser and for `--help`: its words, a one-line summary, its flags
 * (commander syntax: `--merchant <id>` takes a value, `--open` is a switch) and its positional arguments.
 * The handlers live beside (commands.ts and friends); cli-program.ts checks that each spec has one.
 */
export interface OptionSpec {
  flags: string;
  description: string;
  /** Refused before the command runs (and before any database starts) when absent or blank. */
  required?: boolean;
  /** May be given several times; the handler gets an array. */
  repeatable?: boolean;
  /** An environment variable that stands in for the flag when it is not given (shown in --help). */
  env?: string;
}

export interface CommandSpec {
  summary: string;
  options?: OptionSpec[];
  /** Required positional arguments, in order: the handler gets each under its name. */
  args?: { name: string; description: string }[];
  /** Reads only the configuration (or another service): runs without bootstrapping a database. */
  withoutDatabase?: boolean;
  /** Text after the flags in --help. */
  more?: string;
}

const MODE = { flags: "--mode <mode>", description: "sandbox or live", required: true };
const MERCHANT = { flags: "--merchant <id>", description: "the merchant (mer_…)", required: true };
const CHAIN_FILTER = { flags: "--chain <chain>", description: "only this chain: eth, bnb, polygon, tron or solana" };
const ROLE = { flags: "--role <role>", description: "owner, admin, developer or viewer", required: true };

export const COMMAND_SPECS: Record<string, CommandSpec> = {
  "merchants create": {
    summary: "create a merchant and its first sandbox and live keys (secrets shown once)",
    options: [
      { flags: "--name <name>", description: "the merchant's name", required: true },
      { flags: "--email <email>", description: "the merchant's contact address", required: true },
    ],
  },
  "merchants list": { summary: "list every merchant" },
  "keys create": {
    summary: "create an API key (its secret is shown once)",
    options: [
      MERCHANT,
      MODE,
      {
        flags: "--scopes <list>",
        description:
          "comma-separated, e.g. payments:read,payouts:write (default: every scope but sandbox:chains, " +
          "the shared sandbox chains' reorg/drop/freeze/congest, which only this flag grants)",
      },
    ],
  },
  "keys rotate": {
    summary: "replace a key with a new secret; the old one stops working at once",
    options: [{ flags: "--key <id>", description: "the key (key_…)", required: true }],
  },
  "keys revoke": {
    summary: "revoke a key",
    options: [{ flags: "--key <id>", description: "the key (key_…)", required: true }],
  },
  "keys list": { summary: "list a merchant's keys (never their secrets)", options: [MERCHANT] },
  "users create": {
    summary: "create a dashboard user (prints a generated password once)",
    options: [MERCHANT, { flags: "--email <email>", description: "the user's address", required: true }, ROLE],
  },
  "users invite": {
    summary: "invite a dashboard user (prints a one-time invitation link)",
    options: [MERCHANT, { flags: "--email <email>", description: "the invitee's address", required: true }, ROLE],
  },
  "balances adjust": {
    summary: "credit or debit a merchant's available balance, with a reason",
    options: [
      MERCHANT,
      MODE,
      { flags: "--chain <chain>", description: "eth, bnb, polygon, tron or solana", required: true },
      {
        flags: "--amount <amount>",
        description: 'exactly 6 decimals, e.g. "100.000000" or "-5.000000"',
        required: true,
      },
      { flags: "--reason <text>", description: "why, for the books", required: true },
    ],
  },
  "ledger check": { summary: "check that every journal balances and every balance matches its entries" },
  "deposits rescan": {
    summary: "read one transaction again and record (and credit, once deep enough) its transfers to deposit addresses",
    options: [
      MODE,
      { flags: "--chain <chain>", description: "eth, bnb, polygon, tron or solana", required: true },
      { flags: "--tx <hash>", description: "the transaction id (Solana: the signature)", required: true },
    ],
  },
  "reorgs list": {
    summary: "credits reversed by reorganizations deeper than the required confirmations",
    options: [
      { flags: "--merchant <id>", description: "only this merchant's" },
      { flags: "--open", description: "only those not yet settled" },
    ],
  },
  "wallets xpub": {
    summary: "where the live seed is: the account xpubs the web processes get instead of the seed",
    withoutDatabase: true,
  },
  "treasury show": {
    summary: "the service's treasury and sweeper per chain, with balances read from the chains",
    options: [MODE],
  },
  "tron resources": {
    summary: "the treasury's and sweeper's TRX, stake, energy and bandwidth left, and the TRX burnt in the last 24 h",
    options: [MODE],
  },
  costs: {
    summary: "what the service's transactions cost: per payment, payout and refund, by chain and day, in native coin",
    options: [
      MODE,
      {
        flags: "--since <date>",
        description: "from this day (YYYY-MM-DD, UTC) or instant (ISO 8601); default 30 days ago",
      },
      CHAIN_FILTER,
      { flags: "--merchant <id>", description: "only this merchant's payments, payouts and refunds" },
    ],
  },
  "sweeps list": {
    summary: "deposit addresses not yet swept: due, sweeping, or dust below the threshold",
    options: [MODE, CHAIN_FILTER],
  },
  "custody frozen": {
    summary:
      "the treasury, sweeper and deposit addresses USDT's issuer has frozen, " +
      "per chain (exit 3 when any is, 1 when a chain cannot be read)",
    options: [MODE, CHAIN_FILTER],
  },
  "custody fund": {
    summary:
      "book native coin given to the treasury or sweeper outside the service, " +
      "or taken from it, so reconcile balances it to the unit",
    options: [
      MODE,
      { flags: "--chain <chain>", description: "eth, bnb, polygon, tron or solana", required: true },
      { flags: "--role <role>", description: "treasury or sweeper", required: true },
      {
        flags: "--amount <amount>",
        description: "in the native coin (ETH, BNB, POL, TRX, SOL): positive given, negative taken out",
        required: true,
      },
      { flags: "--tx <hash>", description: "the transaction that moved it (booked once per role)" },
      { flags: "--note <text>", description: "why, for whoever reads the books" },
    ],
  },
  reconcile: {
    summary:
      "USDT and native coin on chain vs the custody books vs what merchants are owed (exit 3 on a shortfall or a gap)",
    options: [MODE, CHAIN_FILTER],
  },
  "payouts policy set": {
    summary: "set a merchant's payout review policy",
    options: [
      MERCHANT,
      MODE,
      { flags: "--review-above <amount>", description: 'hold payouts above this amount for review, or "none"' },
      { flags: "--review-new-destinations <bool>", description: "hold payouts to new addresses: true or false" },
    ],
  },
  "payouts policy show": { summary: "show a merchant's payout review policy", options: [MERCHANT, MODE] },
  "refunds policy set": {
    summary: "set a merchant's refund policy: claim refunds opened by themselves for overpaid and late money",
    options: [
      MERCHANT,
      MODE,
      {
        flags: "--overpaid-above <amount>",
        description: 'refund the excess of payments overpaid by more than this (6 decimals; 0.000000: any), or "none"',
      },
      { flags: "--late-payments <bool>", description: "refund what arrives after a payment expired: true or false" },
    ],
  },
  "refunds policy show": { summary: "show a merchant's refund policy", options: [MERCHANT, MODE] },
  "payouts approve": {
    summary: "approve a payout held for review",
    options: [{ flags: "--payout <id>", description: "the payout (pay_out_…)", required: true }],
  },
  "payouts reject": {
    summary: "reject a payout held for review (its amount returns to available)",
    options: [{ flags: "--payout <id>", description: "the payout (pay_out_…)", required: true }],
  },
  "denylist add": {
    summary: "refuse payouts to an address",
    options: [
      { flags: "--address <address>", description: "the address", required: true },
      { flags: "--chain <chain>", description: "only on this chain (default: every chain)" },
      { flags: "--reason <text>", description: "why, for the record" },
    ],
  },
  "denylist remove": {
    summary: "take an address the operator added off the deny-list",
    options: [
      { flags: "--address <address>", description: "the address", required: true },
      { flags: "--chain <chain>", description: "the chain it was added for (default: every chain)" },
    ],
  },
  "denylist list": { summary: "list the deny-list" },
  "denylist import-ofac": {
    summary: "replace the deny-list's OFAC entries with the digital currency addresses of OFAC's SDN list",
    options: [
      {
        flags: "--file <path>",
        description: "OFAC's SDN.CSV, and its sdn_comments.csv (give --file once for each)",
        required: true,
        repeatable: true,
      },
    ],
  },
};
