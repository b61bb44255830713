import { WalletPayError } from "./errors";

/**
 * The parts of TronLink's injected `window.tronLink` / `window.tronWeb` this page uses, typed here so the
 * tronweb package never enters the client bundle.
 */
export interface TronTransaction {
  txID: string;
  [key: string]: unknown;
}

interface TronParameter {
  type: string;
  value: string;
}

interface TriggerResult {
  result?: { result?: boolean; code?: string; message?: string };
  transaction?: TronTransaction;
  constant_result?: string[];
}

export interface InjectedTronWeb {
  ready?: boolean;
  defaultAddress?: { base58?: string | false; hex?: string | false };
  fullNode?: { host?: string };
  transactionBuilder: {
    triggerSmartContract(
      contract: string,
      selector: string,
      options: { feeLimit?: number },
      parameters: TronParameter[],
      issuer: string,
    ): Promise<TriggerResult>;
    triggerConstantContract?(
      contract: string,
      selector: string,
      options: Record<string, unknown>,
      parameters: TronParameter[],
      issuer: string,
    ): Promise<TriggerResult>;
  };
  trx: {
    sign(transaction: TronTransaction): Promise<TronTransaction>;
    sendRawTransaction(
      signed: TronTransaction,
    ): Promise<{ result?: boolean; txid?: string; code?: string; message?: string; transaction?: { txID?: string } }>;
  };
}

export interface InjectedTronLink {
  ready?: boolean;
  tronWeb?: InjectedTronWeb | false;
  request?(args: { method: string; params?: unknown }): Promise<unknown>;
}

interface TronWindow {
  tronLink?: InjectedTronLink;
  tronWeb?: InjectedTronWeb | false;
}

export function injectedTron(w: unknown = typeof window === "undefined" ? undefined : window): {
  tronLink?: InjectedTronLink;
  tronWeb?: InjectedTronWeb;
} {
  const tw = (w ?? {}) as TronWindow;
  const tronWeb = (tw.tronLink?.tronWeb || tw.tronWeb || undefined) as InjectedTronWeb | undefined;
  return { tronLink: tw.tronLink, tronWeb };
}

/** Tron nodes return messages hex-encoded ("4f55545f4f465f454e45524759" → "OUT_OF_ENERGY"). */
export function decodeTronMessage(message: string | undefined): string {
  if (!message) return "";
  if (!/^(?:[0-9a-f]{2})+$/i.test(message)) return message;
  const bytes = new Uint8Array(message.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(message.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes);
}

const FEE_LIMIT_SUN = 100_000_000; // 100 TRX, as the server's TronAdapter

/**
 * Asks TronLink for the account (tron_requestAccounts when TronLink offers it) and returns its base58
 * address. TronLink answers { code: 200 } on approval, 4001 on rejection, and nothing when it is locked.
 */
export async function connectTronLink(): Promise<string> {
  const { tronLink } = injectedTron();
  if (!tronLink && !injectedTron().tronWeb) throw new WalletPayError("no-wallet", "TronLink was not found");
  if (tronLink?.request) {
    const answer = (await tronLink.request({ method: "tron_requestAccounts" })) as
      | { code?: number | string; message?: string }
      | string
      | undefined;
    const code = typeof answer === "object" && answer ? Number(answer.code) : undefined;
    if (code === 4001)
      throw Object.assign(
        new Error(
          answer && typeof answer === "object"
            ? answer.message || "User rejected the request"
            : "User rejected the request",
        ),
        { code: 4001 },
      );
    if (code !== 200)
      throw new WalletPayError(
        "other",
        code === 4000
          ? "TronLink is already showing a request; answer it first"
          : "TronLink is locked; unlock it and try again",
      );
  }
  const address = injectedTron().tronWeb?.defaultAddress?.base58;
  if (!address) throw new WalletPayError("other", "TronLink is locked or has no account; unlock it and try again");
  return address;
}

/**
 * TRC-20 transfer(address,uint256) of `rawAmount` from the TronLink account to `to`: built by TronLink's
 * node, signed in TronLink, broadcast. A free dry run first, so a payer without enough USDT is told so
 * instead of paying the fee of a transfer that fails on chain. Returns the txID.
 */
export async function sendTronUsdt(
  tronWeb: InjectedTronWeb,
  p: { token: string; to: string; rawAmount: bigint; from: string },
): Promise<string> {
  const selector = "transfer(address,uint256)";
  const parameters = [
    { type: "address", value: p.to },
    { type: "uint256", value: p.rawAmount.toString() },
  ];
  if (tronWeb.transactionBuilder.triggerConstantContract) {
    const dryRun = await tronWeb.transactionBuilder
      .triggerConstantContract(p.token, selector, {}, parameters, p.from)
      .catch((e: unknown) => {
        if (/revert/i.test(e instanceof Error ? e.message : String(e)))
          throw new WalletPayError("insufficient-funds", "the token contract refused the transfer", { cause: e });
        return null; // the dry run is only a courtesy; the wallet still decides
      });
    if (dryRun?.result?.result === false || /revert/i.test(decodeTronMessage(dryRun?.result?.message))) {
      throw new WalletPayError("insufficient-funds", "the token contract refused the transfer");
    }
  }
  const built = await tronWeb.transactionBuilder.triggerSmartContract(
    p.token,
    selector,
    { feeLimit: FEE_LIMIT_SUN },
    parameters,
    p.from,
  );
  if (!built.result?.result || !built.transaction)
    throw new Error(decodeTronMessage(built.result?.message) || "TronLink could not build the transfer");
  const signed = await tronWeb.trx.sign(built.transaction);
  const sent = await tronWeb.trx.sendRawTransaction(signed);
  if (!sent.result)
    throw Object.assign(
      new Error(
        [sent.code, decodeTronMessage(sent.message)].filter(Boolean).join(": ") || "the network refused the transfer",
      ),
      { code: sent.code },
    );
  return sent.txid || sent.transaction?.txID || signed.txID;
}

/** Whether TronLink's node is the one this payment's network is on (null when it cannot be told). */
export function tronNodeMatches(tronWeb: InjectedTronWeb, browserRpcUrl: string | null): boolean | null {
  const host = tronWeb.fullNode?.host;
  if (!host) return null;
  if (browserRpcUrl) {
    try {
      return new URL(host).origin === new URL(browserRpcUrl).origin;
    } catch {
      return null;
    }
  }
  // Live payments are on Tron mainnet: a test network's node means the wrong network.
  return !/shasta|nile|testnet/i.test(host);
}
