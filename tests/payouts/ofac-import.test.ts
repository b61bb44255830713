import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { base58 } from "@scure/base";
import { TronWeb } from "tronweb";
import { bytesToHex, getAddress } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { isDenied } from "@/lib/money-out/destinations/deny-list";
import { runCli } from "../helpers/run-cli";

// Fresh addresses per run, in the forms OFAC publishes: EIP-55 mixed case, Tron base58check, Solana base58.
const evm = () => getAddress(bytesToHex(randomBytes(20)));
const tron = () => TronWeb.address.fromHex(`41${randomBytes(20).toString("hex")}`);
const solana = () => base58.encode(randomBytes(32));
const [evm1, evm2, evm3, evm4, handEvm] = [evm(), evm(), evm(), evm(), evm()];
const [tron1, tron2] = [tron(), tron()];
const [sol1, sol2] = [solana(), solana()];
const btc = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
const ltc = "LQAhYwwK5AR1JQiQPr7vu8Pu4b6qcxxvNB";
const xmr = "4AdUndXHHZ6cfufTMvppY6JwXNouMBzSkbLYfpAV5Usx3skxNgYeYTRj5UzqtReoS44qo9mtmXCqY45DJ852K5Jv2684Rge";
// A Tron address with one character changed: its checksum no longer matches.
const badTron = `${tron1.slice(0, -1)}${tron1.endsWith("a") ? "b" : "a"}`;

// OFAC's SDN.CSV: no header, ent_num bare, text quoted, "-0- " for empty, CR LF, a DOS end-of-file byte.
const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
const NUL = '"-0- "';
const sdnRow = (ent: number, name: string, type: string | null, program: string, remarks: string | null) =>
  [ent, q(name), type ? q(type) : NUL, q(program), NUL, NUL, NUL, NUL, NUL, NUL, NUL, remarks ? q(remarks) : NUL].join(
    ",",
  );
const csv = (rows: string[]) => `${rows.join("\r\n")}\r\n\x1a`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ofac-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const GARANTEX = "GARANTEX EUROPE, OU";
const SMITH = 'SMITH, John "Jack"';
// The first publication: the long remarks of 36216 are cut mid-word and continue in sdn_comments.csv.
const first = {
  sdn: write(
    "SDN.CSV",
    csv([
      sdnRow(
        36216,
        GARANTEX,
        null,
        "CYBER2] [RUSSIA-EO14024",
        `Website garantex.io; Digital Currency Address - ETH ${evm1}; alt. Digital Currency Address - USDT ${evm1}; ` +
          `alt. Digital Currency Address - XBT ${btc}; Digital Currency Address - USDT ${tron1}; alt. Digital ` +
          `Currency Address - TRX ${tron2}; Digital Currency Address - LTC ${ltc}; Digital Currency Address - SOL ` +
          `${sol1}; alt. Digital Currency Addres`,
      ),
      sdnRow(17016, "SBERBANK", null, "RUSSIA-EO14024", null),
      sdnRow(
        40000,
        SMITH,
        "individual",
        "CYBER2",
        `DOB 01 Jan 1980; Digital Currency Address - ETH 0x12345; alt. Digital Currency Address - TRX ${badTron}; ` +
          `alt. Digital Currency Address - USDT ${sol2}; alt. Digital Currency Address - ETH ${evm3.toLowerCase()}.`,
      ),
    ]),
  ),
  comments: write(
    "sdn_comments.csv",
    csv([
      `36216,` +
        q(
          `s - ARB ${evm2}; a.k.a. 'GRNTX'; Digital Currency Address - XMR ${xmr}; ` +
            `alt. Digital Currency Address - BSC ${evm3}.`,
        ),
    ]),
  ),
};
// A later publication: 40000 delisted, tron1 / evm2 no longer listed for 36216, a new entry 50000.
const second = write(
  "SDN-later.CSV",
  csv([
    sdnRow(
      36216,
      GARANTEX,
      null,
      "CYBER2",
      `Digital Currency Address - ETH ${evm1}; alt. Digital Currency Address - TRX ${tron2}; Digital Currency ` +
        `Address - SOL ${sol1}; alt. Digital Currency Address - BSC ${evm3}.`,
    ),
    sdnRow(50000, "NEW ENTITY LLC", null, "CYBER2", `Digital Currency Address - USDC ${evm4}.`),
  ]),
);

const EVM_CHAINS: Chain[] = ["eth", "bnb", "polygon"];
const denied = (chain: Chain, address: string) => isDenied(getDb(), chain, address);
const cli = async (args: string[]) => {
  const res = await runCli([...args, "--json"], process.env);
  return { ...res, json: JSON.parse(res.stdout) };
};
const ofacRows = () =>
  query(getDb(), "select chain, address, reason from payout_denylist where source = 'ofac' order by chain, address");

describe("denylist import-ofac", () => {
  it("denies each listed EVM / Tron / Solana address on its chains; " +
    "a re-import replaces OFAC's entries and keeps the operator's", async () => {
    const before = await ofacRows();
    const imported = await cli(["denylist", "import-ofac", "--file", first.sdn, "--file", first.comments]);
    expect(imported.code, imported.stdout + imported.stderr).toBe(0);
    expect(imported.json).toEqual({
      imported: 7,
      evm: 3,
      tron: 2,
      solana: 2,
      skipped: { XBT: 1, LTC: 1, XMR: 1, ETH: 1, TRX: 1 },
      removed: before.length, // whatever an earlier run left: none of this run's addresses
    });

    for (const address of [evm1, evm2, evm3, evm1.toLowerCase()])
      for (const chain of EVM_CHAINS) expect(await denied(chain, address), `${address} on ${chain}`).toBe(true);
    for (const address of [tron1, tron2]) {
      expect(await denied("tron", address)).toBe(true);
      expect(await denied("solana", address)).toBe(false);
    }
    for (const address of [sol1, sol2]) {
      expect(await denied("solana", address)).toBe(true);
      expect(await denied("tron", address)).toBe(false);
    }
    // Not listed, other currencies, malformed: not denied.
    for (const [chain, address] of [
      ["eth", evm4],
      ["tron", badTron],
      ["tron", tron()],
      ["solana", solana()],
      ["solana", btc],
    ] as const)
      expect(await denied(chain, address), address).toBe(false);

    const listed = await cli(["denylist", "list"]);
    const entry = (address: string) =>
      listed.json.data.filter((e: { address: string; source: string }) => e.address === address && e.source === "ofac");
    expect(entry(evm3.toLowerCase())).toEqual([
      expect.objectContaining({
        chain: null,
        reason: `OFAC SDN: ${GARANTEX} (ent 36216); ${SMITH} (ent 40000)`,
      }),
    ]);
    expect(entry(tron1)).toEqual([
      expect.objectContaining({ chain: "tron", reason: `OFAC SDN: ${GARANTEX} (ent 36216)` }),
    ]);

    // The operator's entries: one for an address OFAC also lists, one of their own.
    expect((await cli(["denylist", "add", "--address", tron1, "--chain", "tron", "--reason", "ours"])).code).toBe(0);
    expect((await cli(["denylist", "add", "--address", handEvm])).code).toBe(0);
    // An OFAC entry is not removed by hand: it leaves with the list.
    const removeOfac = await cli(["denylist", "remove", "--address", evm2]);
    expect(removeOfac.code).toBe(2);
    expect(removeOfac.json.error.message).toMatch(/OFAC's SDN list/);
    expect(await denied("eth", evm2)).toBe(true);

    const again = await cli(["denylist", "import-ofac", "--file", second]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.json).toEqual({ imported: 5, evm: 3, tron: 1, solana: 1, skipped: {}, removed: 3 });
    // Delisted: no longer denied (tron1 stays, the operator listed it too).
    for (const chain of EVM_CHAINS) {
      expect(await denied(chain, evm2)).toBe(false);
      expect(await denied(chain, evm4)).toBe(true);
      expect(await denied(chain, handEvm)).toBe(true);
    }
    expect(await denied("solana", sol2)).toBe(false);
    expect(await denied("tron", tron1)).toBe(true);
    const rows = await ofacRows();
    expect(rows.map((r) => r.address).sort()).toEqual(
      [evm1, evm3, evm4]
        .map((a) => a.toLowerCase())
        .concat(tron2, sol1)
        .sort(),
    );
    expect(rows.find((r) => r.address === evm3.toLowerCase())?.reason).toBe(`OFAC SDN: ${GARANTEX} (ent 36216)`);
    const human = await runCli(["denylist", "list"], process.env);
    expect(human.stdout).toContain(`tron  ${tron1}  (cli)  ours`);
    expect(human.stdout).toContain(`*  ${evm4.toLowerCase()}  (ofac)  OFAC SDN: NEW ENTITY LLC (ent 50000)`);
  }, 240_000);

  it("malformed files: exit 2 with where and why, no stack trace, nothing written", async () => {
    const before = await ofacRows();
    const good = sdnRow(60000, "SOMEONE", null, "CYBER2", `Digital Currency Address - ETH ${evm()}.`);
    const cases: [string[], RegExp][] = [
      [[write("short.csv", csv([good, '60001,"CUT SHORT","-0- ","CYBER2"']))], /short\.csv: line 2 has 4 fields/],
      [[write("open.csv", csv([good, '60002,"NEVER CLOSED']))], /open\.csv: line 2: a quoted field never ends/],
      [
        [write("ent.csv", csv([sdnRow(1, "X", null, "P", null).replace(/^1/, "abc")]))],
        /ent_num "abc" is not a number/,
      ],
      [[path.join(dir, "missing.csv")], /cannot read .*missing\.csv: ENOENT/],
      [[first.comments], /no SDN file among the --file arguments/],
      [[write("good.csv", csv([good])), first.comments], /ent_num 36216 is in no SDN file given/],
      [[], /--file is required/],
    ];
    for (const [files, message] of cases) {
      const res = await cli(["denylist", "import-ofac", ...files.flatMap((f) => ["--file", f])]);
      expect(res.code, res.stdout).toBe(2);
      expect(res.json.error.message).toMatch(message);
      expect(res.stdout + res.stderr).not.toMatch(/\n\s+at /);
    }
    const plain = await runCli(["denylist", "import-ofac", "--file", path.join(dir, "short.csv")], process.env);
    expect(plain.code).toBe(2);
    expect(plain.stderr.trim()).toMatch(/^error: .*short\.csv: line 2 has 4 fields, not 12$/);
    expect(await ofacRows()).toEqual(before);
  }, 240_000);
});
