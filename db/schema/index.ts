export * from "./merchants";
export * from "./api-infra";
export * from "./payment-links";
export * from "./payments";
export * from "./ledger";
export * from "./payouts";
export * from "./webhooks";
export * from "./events";
