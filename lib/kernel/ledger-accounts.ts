/**
 * The merchants' ledger accounts (lib/books/ledger/post-journal.ts posts to them): the four a merchant's balance
 * is made of, and the outside ones money comes from or goes to. Here, below every layer, so a lifecycle table can
 * name the movement each transition makes.
 */
export type MerchantAccount = "available" | "reserved" | "payouts_in_flight" | "refunds_in_flight";
export type ExternalAccount = "chain_deposits" | "chain_withdrawals" | "adjustments" | "reorg_receivables";
