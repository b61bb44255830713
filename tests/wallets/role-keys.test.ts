import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mnemonicToSeedSync } from "@scure/bip39";
import { base58 } from "@scure/base";
import { mnemonicToAccount, privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { TronWeb } from "tronweb";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { getDb } from "@/lib/platform/db/client";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { roleKey } from "@/lib/chains/wallets/role-keys";
import { deriveRoleKey, ROLE_PATH } from "@/lib/chains/wallets/wallet-roles";

const HARDHAT = "test test test test test test test test test test test junk";
const seed = mnemonicToSeedSync(HARDHAT);

afterAll(() => {
  delete process.env.LIVE_SEED_MNEMONIC;
  delete process.env.LIVE_TREASURY_KEY_FILE;
  resetConfig();
});

describe("the service's own signers (treasury, sweeper)", () => {
  it("derive at their documented paths, as any BIP-44 wallet would (account 1' and 2')", () => {
    expect(ROLE_PATH.evm).toEqual({ treasury: "m/44'/60'/1'/0/0", sweeper: "m/44'/60'/2'/0/0" });
    expect(deriveRoleKey(seed, "evm", "treasury").address).toBe(
      mnemonicToAccount(HARDHAT, { accountIndex: 1 }).address,
    );
    expect(deriveRoleKey(seed, "evm", "sweeper").address).toBe(mnemonicToAccount(HARDHAT, { accountIndex: 2 }).address);
    // Tron: the same 20 bytes scheme on coin type 195.
    const tron = deriveRoleKey(seed, "tron", "treasury");
    expect(TronWeb.address.fromPrivateKey(Buffer.from(tron.privateKey).toString("hex"))).toBe(tron.address);
  });

  it("are never a deposit address of any family, and their keys sign for their addresses", () => {
    for (const family of ["evm", "tron", "solana"] as const) {
      const roles = (["treasury", "sweeper"] as const).map((r) => deriveRoleKey(seed, family, r).address);
      expect(new Set(roles).size).toBe(2);
      for (let i = 0; i < 200; i++) expect(roles).not.toContain(deriveAddress(seed, family, i).address);
    }
    const evm = deriveRoleKey(seed, "evm", "treasury");
    expect(privateKeyToAccount(`0x${Buffer.from(evm.privateKey).toString("hex")}`).address).toBe(evm.address);
  });

  it("live: a role key file replaces the seed's key for the families it lists; the others still derive", async () => {
    const key = generatePrivateKey();
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "role-keys-")), "treasury.json");
    fs.writeFileSync(file, JSON.stringify({ evm: key }));
    process.env.LIVE_SEED_MNEMONIC = HARDHAT;
    process.env.LIVE_TREASURY_KEY_FILE = file;
    resetConfig();
    const db = getDb();
    const fromFile = await roleKey(db, "live", "eth", "treasury");
    expect(fromFile).toMatchObject({ address: privateKeyToAccount(key).address, path: null });
    expect((await roleKey(db, "live", "eth", "sweeper")).address).toBe(
      mnemonicToAccount(HARDHAT, { accountIndex: 2 }).address,
    );
    const solana = await roleKey(db, "live", "solana", "treasury");
    expect(solana.path).toBe("m/44'/501'/0'/1'");
    expect(base58.decode(solana.address)).toHaveLength(32);
    fs.writeFileSync(file, JSON.stringify({ evm: "0x1234" }));
    await expect(roleKey(db, "live", "eth", "treasury")).rejects.toThrow(
      /LIVE_TREASURY_KEY_FILE: the "evm" key must be 32 bytes/,
    );
    await expect(roleKey(db, "live", "eth", "treasury")).rejects.not.toThrow(/1234/);
  });
});
