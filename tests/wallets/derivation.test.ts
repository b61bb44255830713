import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import { deriveAddress } from "@/lib/chains/wallets/derive-address";
import { decryptSecret, encryptSecret } from "@/lib/platform/secrets/encryption";
import HDKeyEd25519 from "micro-key-producer/slip10.js";

const seed = mnemonicToSeedSync("test test test test test test test test test test test junk");

describe("deposit address derivation (known vectors)", () => {
  it("evm m/44'/60'/0'/0/i, EIP-55 checksummed", () => {
    expect(deriveAddress(seed, "evm", 0)).toEqual({
      address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      path: "m/44'/60'/0'/0/0",
    });
    expect(deriveAddress(seed, "evm", 1).address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(deriveAddress(seed, "evm", 2).address).toBe("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  });

  it("tron m/44'/195'/0'/0/i, base58 T-address; agrees with TronWeb's own derivation", () => {
    const ours = deriveAddress(seed, "tron", 0);
    expect(ours).toEqual({ address: "TWer2Ygk5TEheHp3TPuYeqxmB6SsGZmaL6", path: "m/44'/195'/0'/0/0" });
    for (const i of [0, 1, 7]) {
      expect(deriveAddress(seed, "tron", i).address).toBe(
        TronWeb.fromMnemonic("test test test test test test test test test test test junk", `m/44'/195'/0'/0/${i}`)
          .address,
      );
      expect(TronWeb.isAddress(deriveAddress(seed, "tron", i).address)).toBe(true);
    }
  });

  it("solana SLIP-0010 m/44'/501'/i'/0', base58 owner address", () => {
    expect(deriveAddress(seed, "solana", 0)).toEqual({
      address: "oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96",
      path: "m/44'/501'/0'/0'",
    });
    // Cross-check index 3 against an independent SLIP-0010 implementation written from the spec.
    const slip10 = (path: number[]) => {
      let I = hmac(sha512, new TextEncoder().encode("ed25519 seed"), seed);
      for (const index of path) {
        const data = new Uint8Array(37);
        data.set(I.slice(0, 32), 1);
        new DataView(data.buffer).setUint32(33, index + 0x80000000);
        I = hmac(sha512, I.slice(32), data);
      }
      return base58.encode(ed25519.getPublicKey(I.slice(0, 32)));
    };
    expect(deriveAddress(seed, "solana", 3).address).toBe(slip10([44, 501, 3, 0]));
  });

  it("SLIP-0010 library matches the specification's ed25519 test vector 1", () => {
    const master = HDKeyEd25519.fromMasterSeed(Buffer.from("000102030405060708090a0b0c0d0e0f", "hex"));
    expect(Buffer.from(master.privateKey).toString("hex")).toBe(
      "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7",
    );
    expect(Buffer.from(master.derive("m/0'").publicKey).toString("hex")).toBe(
      "008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c",
    );
  });

  it("refuses indexes outside the non-hardened range", () => {
    expect(() => deriveAddress(seed, "evm", -1)).toThrow(/out of range/);
    expect(() => deriveAddress(seed, "evm", 2 ** 31)).toThrow(/out of range/);
  });
});

describe("secrets at rest", () => {
  const key = Buffer.alloc(32, 7);
  it("AES-256-GCM round trip, fresh IV each time, bound to its purpose", () => {
    const a = encryptSecret(key, Buffer.from("twelve words"), "wallet-seed:sandbox");
    const b = encryptSecret(key, Buffer.from("twelve words"), "wallet-seed:sandbox");
    expect(a).not.toBe(b);
    expect(a).not.toContain("twelve");
    expect(decryptSecret(key, a, "wallet-seed:sandbox").toString()).toBe("twelve words");
    expect(() => decryptSecret(key, a, "webhook-secret")).toThrow();
    expect(() => decryptSecret(Buffer.alloc(32, 8), a, "wallet-seed:sandbox")).toThrow();
    const tampered = a.slice(0, -2) + (a.endsWith("A") ? "BB" : "AA");
    expect(() => decryptSecret(key, tampered, "wallet-seed:sandbox")).toThrow();
  });
});
