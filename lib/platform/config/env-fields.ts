import { z } from "zod";
import { HDKey } from "@scure/bip32";
import { parseAmount } from "@/lib/kernel/amount";

/**
 * Builders for one environment variable each. Unset and empty mean "use the default"; anything else must
 * parse, or the variable gets an issue worded to follow its name: `PORT must be a positive integer, got "abc"`.
 */
function variable<T, F>(
  fallback: F,
  expected: string,
  parse: (raw: string) => T | undefined,
  opts: { echo?: boolean } = {},
) {
  return z
    .string({ error: "must be text" })
    .optional()
    .transform((raw, ctx): T | F => {
      if (raw === undefined || raw === "") return fallback;
      const value = parse(raw);
      if (value !== undefined) return value;
      // Secrets and URLs (which often carry provider keys) are never echoed into logs.
      ctx.addIssue({ code: "custom", message: `must be ${expected}${opts.echo === false ? "" : `, got "${raw}"`}` });
      return z.NEVER;
    });
}

export const text = <F>(fallback: F) => variable(fallback, "text", (raw) => raw);

/** An smtp:// or smtps:// URL (its password is never echoed in the error). */
export const smtpUrl = () =>
  variable(
    undefined,
    "an smtp:// or smtps:// URL",
    (raw) => {
      try {
        return ["smtp:", "smtps:"].includes(new URL(raw).protocol) ? raw : undefined;
      } catch {
        return undefined;
      }
    },
    { echo: false },
  );

/** A secret of at least 32 characters, never echoed in the error. */
export const secretText = () =>
  variable(undefined, "at least 32 characters", (raw) => (raw.length >= 32 ? raw : undefined), { echo: false });

export const positiveInt = <F>(fallback: F) =>
  variable(fallback, "a positive integer", (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= 1 ? value : undefined;
  });

/** A TCP port; 0 asks the system for any free one (the process logs which). */
export const listenPort = <F>(fallback: F) =>
  variable(fallback, "a port number (0-65535)", (raw) => {
    const value = Number(raw);
    return Number.isInteger(value) && value >= 0 && value <= 65_535 ? value : undefined;
  });

export const nonNegativeNumber = <F>(fallback: F, expected: string) =>
  variable(fallback, expected, (raw) => {
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  });

export const positiveNumber = <F>(fallback: F) =>
  variable(fallback, "a positive number", (raw) => {
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 ? value : undefined;
  });

/** A USDT amount with up to 6 decimals ("50", "0.5"), as USDT base units. */
export const usdtAmount = <F>(fallback: F) =>
  variable(fallback, 'a USDT amount with up to 6 decimals, e.g. "50" or "0.5"', (raw) => {
    const parsed = parseAmount(raw, "up_to_6");
    return parsed.ok ? parsed.units : undefined;
  });

export const flag = (fallback: boolean) =>
  variable(fallback, "true or false", (raw) => (raw === "true" ? true : raw === "false" ? false : undefined));

export const oneOf = <const V extends string, const F>(values: readonly V[], fallback: F) =>
  variable(fallback, `one of ${values.join(", ")}`, (raw) => values.find((v) => v === raw));

/** A comma-separated list whose every entry is one of `values`. */
export const listOf = <const V extends string, F>(values: readonly V[], fallback: F) =>
  variable(fallback, `a comma-separated list of ${values.join(", ")}`, (raw) => {
    const entries = raw
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const known = entries.filter((entry): entry is V => (values as readonly string[]).includes(entry));
    return known.length === entries.length && known.length > 0 ? [...new Set(known)] : undefined;
  });

export const absoluteUrl = <F>(fallback: F) =>
  variable(
    fallback,
    "an absolute URL (http://… or https://…)",
    (raw) => (URL.canParse(raw) && /^https?:$/.test(new URL(raw).protocol) ? raw : undefined),
    { echo: false },
  );

/** 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`). */
export const masterKeyBytes = () =>
  variable(
    undefined,
    "32 bytes, base64 or hex (openssl rand -base64 32)",
    (raw) => {
      const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
      return key.length === 32 ? key : undefined;
    },
    { echo: false },
  );

/**
 * An account-level (depth 4, m/44'/c'/0'/0) BIP-32 extended public key, as `npm run cli -- wallets xpub`
 * prints it. An extended private key is refused and never echoed.
 */
export const accountXpub = () =>
  variable(
    undefined,
    "an account-level extended public key (xpub…, from `npm run --silent cli -- wallets xpub`)",
    (raw) => {
      if (!raw.startsWith("xpub")) return undefined;
      try {
        const node = HDKey.fromExtendedKey(raw);
        return node.depth === 4 && !node.privateKey ? raw : undefined;
      } catch {
        return undefined;
      }
    },
    { echo: false },
  );
