import fc from "fast-check";
import { METADATA_LIMITS } from "@/lib/kernel/schemas/metadata";
import { hostileJson, hostileString } from "./hostile-values";
import type { Hints } from "./zod-arbitrary";

/**
 * Values for fields whose zod schema is an opaque transform (amounts, metadata) or whose valid values a
 * generic string generator would almost never hit (addresses, webhook URLs).
 */
const amount = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.nat({ max: 100_000 }), fc.nat({ max: 999_999 }))
      .map(([i, f]) => `${i}.${String(f).padStart(6, "0")}`),
  },
  { weight: 1, arbitrary: fc.tuple(fc.nat({ max: 1000 }), fc.nat({ max: 99 })).map(([i, f]) => `${i}.${f}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "0.000000",
      "0.000001",
      "100000000000.000000",
      "100000000000.000001",
      "99999999999999999999999999999999.000000",
      "-1.000000",
      "1.0000000",
      "01.000000",
      "1e6",
      " 1.000000",
      "1,000000",
      "١.٠٠٠٠٠٠",
      "Infinity",
      "0x10",
    ),
  },
  { weight: 1, arbitrary: hostileJson },
);

/** Gwei as a decimal string (the sandbox congest helper): up to 9 decimals, at most 10,000. */
const gwei = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.nat({ max: 10_000 }), fc.nat({ max: 999_999_999 }))
      .map(([i, f]) => `${i}.${String(f).padStart(9, "0")}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("0", "50", "10000", "10000.000000001", "1.0000000001", "-1", "1e3", " 1", "0x10", "."),
  },
  { weight: 1, arbitrary: hostileJson },
);

/** Micro-lamports per compute unit (the sandbox congest helper on solana): a whole number up to 100,000,000. */
const computeUnitPrice = fc.oneof(
  { weight: 3, arbitrary: fc.nat({ max: 100_000_000 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom("0", "100000000", "100000001", "1.5", "-1", "1e3", " 1", "0x10", "") },
  { weight: 1, arbitrary: hostileJson },
);

const metadataKey = fc.string({ minLength: 1, maxLength: METADATA_LIMITS.keyLength });
const metadataValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.boolean(),
  fc.double(),
  fc.constantFrom("x".repeat(METADATA_LIMITS.valueLength), "x".repeat(METADATA_LIMITS.valueLength + 1)),
);
const metadata = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(metadataKey, metadataValue, { maxKeys: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      Object.fromEntries(Array.from({ length: METADATA_LIMITS.keys }, (_, i) => [`k${i}`, i])),
      Object.fromEntries(Array.from({ length: METADATA_LIMITS.keys + 1 }, (_, i) => [`k${i}`, i])),
      { ["k".repeat(METADATA_LIMITS.keyLength + 1)]: "v" },
      { "": "v" },
      { nested: { a: 1 } },
      { list: [1, 2] },
      { nul: null },
      { "\u0000": "\ud800" },
    ),
  },
  { weight: 1, arbitrary: hostileJson },
);

const ADDRESSES = [
  "0x000000000000000000000000000000000000dEaD",
  "0x000000000000000000000000000000000000dead",
  "0x000000000000000000000000000000000000DEAD",
  "0x0000000000000000000000000000000000000000",
  "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
  "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwc",
  "11111111111111111111111111111111",
  "So11111111111111111111111111111111111111112",
  "0x",
];
const address = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ADDRESSES) },
  { weight: 1, arbitrary: hostileString },
);

// Webhook URLs stay on loopback (closed ports): a worker of another test file may deliver to them.
const LOOPBACK_URLS = [
  "http://127.0.0.1:9/fuzz",
  "https://localhost:9/fuzz",
  "http://[::1]:9/fuzz",
  `http://127.0.0.1:9/${"p".repeat(2030)}`,
  `http://127.0.0.1:9/${"p".repeat(2050)}`,
  "javascript:alert(1)",
  "ftp://127.0.0.1:9/",
  "http://127.0.0.1:9/\u0000",
  "http://user:pass@127.0.0.1:9/",
  "http://[::1",
  "not a url",
];
const url = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LOOPBACK_URLS) },
  { weight: 1, arbitrary: hostileString.map(loopbackOnly) },
);

// Customers' emails: valid ones most of the time (a generic string is never one), and near misses.
const email = fc.oneof(
  { weight: 3, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.constantFrom("", "a@", "@b", "a b@c.d", `${"x".repeat(250)}@e.io`, "\u0000@x.io") },
  { weight: 1, arbitrary: hostileString },
);

/**
 * Anything that parses as a URL with a host other than loopback becomes a loopback URL: no traffic leaves the machine.
 */
export function loopbackOnly(value: string): string {
  try {
    const host = new URL(value).hostname;
    return ["127.0.0.1", "localhost", "[::1]", ""].includes(host) ? value : "http://127.0.0.1:9/fuzz";
  } catch {
    return value;
  }
}

export const FIELD_HINTS: Hints = {
  amount,
  base_fee_gwei: gwei,
  compute_unit_price: computeUnitPrice,
  email,
  metadata,
  to_address: address,
  address,
  url,
};

const cursor = fc.oneof(
  fc.constantFrom(
    "9".repeat(40),
    "18446744073709551616",
    "-1",
    "pay_",
    "pay_%00",
    "evt_\u0000",
    "\ud800",
    "0",
    "wh_000000000000000000000",
  ),
  fc.string({ maxLength: 30 }),
);
const limit = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map(String),
  fc.constantFrom("0", "101", "-1", "1.5", "1e2", "９", "99999999999999999999999", "0100", ""),
);
export const QUERY_HINTS: Hints = { starting_after: cursor, limit };
