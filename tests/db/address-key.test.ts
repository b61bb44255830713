import { describe, expect, it } from "vitest";
import { addressKey, addressKeySql, sameAddress } from "@/lib/chains/address-key";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

const CHECKSUMMED = "0x52908400098527886E0F7030069857D2E4169EE7";
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const SOLANA = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";

describe("one rule for comparing addresses", () => {
  it("EVM hex compares without its checksum case; base58 (Tron, Solana) keeps its case", () => {
    expect(sameAddress(CHECKSUMMED, CHECKSUMMED.toLowerCase())).toBe(true);
    expect(sameAddress(` ${CHECKSUMMED}`, CHECKSUMMED)).toBe(true);
    expect(sameAddress(TRON, TRON.toLowerCase())).toBe(false);
    expect(sameAddress(SOLANA, SOLANA.toUpperCase())).toBe(false);
    expect(sameAddress(SOLANA, SOLANA)).toBe(true);
    expect(sameAddress(null, SOLANA)).toBe(false);
  });

  it("PostgreSQL applies the same rule as the code", async () => {
    for (const address of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), TRON, SOLANA, "0x1234"]) {
      const [row] = await query<{ key: string }>(getDb(), `select ${addressKeySql("$1::text")} as key`, [address]);
      expect(row!.key).toBe(addressKey(address));
    }
  });
});
