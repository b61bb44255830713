import fc from "fast-check";

/** Strings a careless parser chokes on: control characters, lone surrogates, odd Unicode, huge lengths. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "\ud83d",
    "\ufeff",
    "\u202e",
    "\uffff",
    "%",
    "%00",
    "%ff",
    "%zz",
    "../..",
    "null",
    "undefined",
    "true",
    "NaN",
    "-0",
    "1e309",
    "__proto__",
    "constructor",
    "<script>alert(1)</script>",
    "' or 1=1 --",
    "$" + "{jndi:ldap://127.0.0.1/x}",
    "\r\nX-Injected: 1",
    "😀".repeat(300),
    "a".repeat(501),
    "a".repeat(2049),
    "b".repeat(70_000),
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ maxLength: 20 }),
);

/** The hostile strings that fit in a request head (node refuses heads over 16 KiB before the app sees them). */
export const urlSizedHostileString = hostileString.filter((s) => s.length <= 5000);

/** Numbers at and beyond the edges: unsafe integers, tiny fractions, negative zero, huge exponents. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    59,
    60,
    61,
    86_400,
    86_401,
    1000,
    1001,
    64,
    65,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER - 2,
    1e21,
    1e308,
    5e-324,
    Number.MAX_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value at all, wrong types and deep nesting included. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { "": "" }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 300 }).map(deepNesting) },
);

export function deepNesting(depth: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/**
 * Text in place of a JSON body that the JSON encoder would never produce: truncated, raw lone
 * surrogates escaped, duplicate keys, numbers JSON.parse turns into Infinity, huge integers.
 */
export const hostileJsonText: fc.Arbitrary<string> = fc.constantFrom(
  "{",
  "}",
  '{"amount":',
  "[]",
  "null",
  "0",
  '"str"',
  '{"amount":"1","amount":"2"}',
  '{"amount":1e999}',
  '{"amount":"1","expires_in":1e999}',
  '{"expires_in":123456789012345678901234567890}',
  '{"blocks":-1e400}',
  '{"amount":"\\ud800"}',
  '{"description":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`,
  "{'amount':'1'}",
  '{"amount":"1",}',
  "\u0000",
  "  \n\t ",
);

/** Raw bytes a UTF-8 decoder must refuse: overlong encodings, lone continuation bytes, a BOM, UTF-16. */
export const hostileBodyBytes: fc.Arbitrary<Buffer> = fc.constantFrom(
  Buffer.from([0xc0, 0xae]),
  Buffer.from('{"amount":"\xff"}', "latin1"),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"amount":"1"}')]),
  Buffer.from('{"amount":"1"}', "utf16le"),
  Buffer.alloc(70 * 1024, 0x20),
  Buffer.from([0x80]),
);
