/**
 * Wallet failures in words. Wallets and their libraries throw many shapes (EIP-1193 errors with a code,
 * viem/wagmi errors with a cause chain, Solana wallet-adapter errors wrapping the wallet's own error,
 * TronLink strings); this reads all of them and never shows a stack trace.
 */
export type WalletErrorKind = "rejected" | "wrong-network" | "insufficient-funds" | "no-wallet" | "other";

/** An error this module raises itself when it already knows what went wrong. */
export class WalletPayError extends Error {
  constructor(
    readonly kind: WalletErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "WalletPayError";
  }
}

export interface ErrorContext {
  /** The network to select by hand, e.g. "BNB Smart Chain (chain ID 56)". */
  network: string;
  /** The coin that pays the network's fees: ETH, BNB, POL, TRX, SOL. */
  gas: string;
}

interface Node {
  name: string;
  code: unknown;
  text: string;
}

/** The error and everything it wraps (cause, error, data.originalError, …), outermost first. */
function chain(error: unknown): Node[] {
  const out: Node[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && out.length < 12) {
    const e = queue.shift();
    if (e === null || e === undefined || seen.has(e)) continue;
    seen.add(e);
    if (typeof e === "string") {
      out.push({ name: "", code: undefined, text: e });
      continue;
    }
    if (typeof e !== "object") continue;
    const o = e as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === "string" ? v : "");
    // MetaMask puts the node's reason in data.message under "Internal JSON-RPC error" (-32603).
    const data = (typeof o.data === "object" && o.data ? o.data : {}) as Record<string, unknown>;
    out.push({
      name: str(o.name),
      code: o.code,
      text: [o.shortMessage, o.message, o.details, o.reason, data.message].map(str).join(" "),
    });
    queue.push(o.cause, o.error, o.originalError, o.innerError, data.originalError, data.cause);
  }
  return out;
}

const REJECTED = new RegExp(
  [
    "user rejected",
    "user denied",
    "rejected by (the )?user",
    "denied by (the )?user",
    "request rejected",
    "user (cancell?ed|canceled|declined|aborted)",
    "cancell?ed by (the )?user",
    "confirmation declined",
    "declined by (the )?user",
  ].join("|"),
  "i",
);
const INSUFFICIENT = new RegExp(
  [
    "insufficient (funds|balance|lamports)",
    "not enough (funds|balance)",
    "exceeds (the )?balance",
    "amount exceeds balance",
    "balance is not sufficient",
    "no record of a prior credit",
    "account resource insufficient",
    "out_of_energy",
    "bandwi?th_error",
    "custom program error: 0x1\\b",
    "invalid account data for instruction",
    "execution reverted",
    "revert opcode executed",
  ].join("|"),
  "i",
);
const REJECTED_NAMES = new Set(["UserRejectedRequestError", "WalletWindowClosedError"]);
const WRONG_NETWORK_NAMES = new Set([
  "ChainMismatchError",
  "ConnectorChainMismatchError",
  "SwitchChainError",
  "SwitchChainNotSupportedError",
  "ChainNotConfiguredError",
]);
const NO_WALLET_NAMES = new Set([
  "ProviderNotFoundError",
  "ConnectorNotFoundError",
  "WalletNotReadyError",
  "WalletNotSelectedError",
]);

export function classifyWalletError(error: unknown): WalletErrorKind {
  // What this module decided itself wins; then the most specific signal found anywhere in the chain.
  if (error instanceof WalletPayError) return error.kind;
  const nodes = chain(error);
  if (nodes.some((n) => n.code === 4001 || n.code === "4001" || REJECTED_NAMES.has(n.name) || REJECTED.test(n.text)))
    return "rejected";
  if (nodes.some((n) => n.name === "InsufficientFundsError" || INSUFFICIENT.test(n.text))) return "insufficient-funds";
  if (nodes.some((n) => n.code === 4902 || WRONG_NETWORK_NAMES.has(n.name))) return "wrong-network";
  if (nodes.some((n) => NO_WALLET_NAMES.has(n.name))) return "no-wallet";
  return "other";
}

/** The first line of the most readable message in the chain, without viem's "Details:/Version:" trailer. */
export function shortReason(error: unknown): string {
  for (const e of [error, ...chain(error).map((n) => n.text)]) {
    let text = "";
    if (typeof e === "string") text = e;
    else if (e && typeof e === "object") {
      const o = e as { shortMessage?: unknown; message?: unknown };
      text =
        typeof o.shortMessage === "string" && o.shortMessage
          ? o.shortMessage
          : typeof o.message === "string"
            ? o.message
            : "";
    }
    text = text
      .split("\n")[0]!
      .replace(/\s+(Details|Version|Request Arguments):.*$/s, "")
      .trim()
      .replace(/[.:]+$/, "");
    if (text) return text.length > 160 ? `${text.slice(0, 157)}…` : text;
  }
  return "the wallet gave no reason";
}

/** One sentence or two for the payer. `phase` says whether we were connecting or sending. */
export function walletErrorMessage(error: unknown, ctx: ErrorContext, phase: "connect" | "send" = "send"): string {
  switch (classifyWalletError(error)) {
    case "rejected":
      return phase === "connect"
        ? "The connection was rejected in your wallet. You can try again."
        : "The payment was rejected in your wallet, so nothing was sent. You can try again.";
    case "wrong-network":
      return `Your wallet is not on ${ctx.network}. Select ${ctx.network} in your wallet by hand, then try again.`;
    case "insufficient-funds":
      return `Your wallet does not have enough USDT or ${ctx.gas} for this payment.`;
    case "no-wallet":
      return (
        "No wallet was found in this browser. Install a wallet extension, " +
        "or pay by scanning the QR code or copying the address."
      );
    case "other":
      // EIP-1193 -32002: a prompt from an earlier click is still open (often hidden behind the browser).
      if (chain(error).some((n) => n.code === -32002))
        return "Your wallet already has a request waiting. Open the wallet, answer it, then try again.";
      return phase === "connect"
        ? `The wallet could not connect: ${shortReason(error)}.`
        : `The wallet could not send the payment: ${shortReason(error)}.`;
  }
}
