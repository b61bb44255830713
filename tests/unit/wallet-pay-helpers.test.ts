import { address, createNoopSigner } from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { PublicKey } from "@solana/web3.js";
import { UserRejectedRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { displayAmount, toBaseUnits } from "@/components/checkout/wallet/amounts";
import { classifyWalletError, walletErrorMessage, WalletPayError } from "@/components/checkout/wallet/errors";
import {
  associatedTokenAddress,
  transferCheckedData,
  usdtPaymentInstructions,
} from "@/components/checkout/wallet/solana-instructions";
import { decodeTronMessage } from "@/components/checkout/wallet/tron-link";

const USDT_MINT = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";
const OWNER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const PAYER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";

describe("wallet payment amounts", () => {
  it("converts the 6-decimal amount due to the token's base units with bigint only", () => {
    expect(toBaseUnits("12.500000", 18)).toBe(12_500_000_000_000_000_000n); // BNB Smart Chain USDT
    expect(toBaseUnits("12.500000", 6)).toBe(12_500_000n); // Ethereum, Polygon, Tron, Solana
    expect(toBaseUnits("0.000001", 18)).toBe(1_000_000_000_000n);
    expect(toBaseUnits("99999999.999999", 18)).toBe(99_999_999_999_999_000_000_000_000n);
  });

  it("refuses malformed, zero and inexpressible amounts instead of rounding", () => {
    expect(() => toBaseUnits("12.5", 6)).toThrow(RangeError);
    expect(() => toBaseUnits("0.000000", 6)).toThrow(RangeError);
    expect(() => toBaseUnits("1e3", 6)).toThrow(RangeError);
    expect(() => toBaseUnits("0.000001", 2)).toThrow(RangeError);
    expect(toBaseUnits("12.500000", 2)).toBe(1250n);
  });

  it("shows the amount without trailing zeros", () => {
    expect(displayAmount("12.500000")).toBe("12.5");
    expect(displayAmount("12.000000")).toBe("12");
    expect(displayAmount("100.000000")).toBe("100");
    expect(displayAmount("0.000001")).toBe("0.000001");
  });
});

describe("Solana instructions written by hand", () => {
  it("encodes TransferChecked as [12, amount u64 LE, decimals]", () => {
    // 12.5 USDT = 12_500_000 = 0xbebc20
    expect([...transferCheckedData(12_500_000n, 6)]).toEqual([12, 0x20, 0xbc, 0xbe, 0, 0, 0, 0, 0, 6]);
    expect([...transferCheckedData((1n << 64n) - 1n, 9)]).toEqual([12, 255, 255, 255, 255, 255, 255, 255, 255, 9]);
    expect(() => transferCheckedData(1n << 64n, 6)).toThrow(RangeError);
  });

  it("derives the associated token account as @solana-program/token does", async () => {
    const [expected] = await findAssociatedTokenPda({
      owner: address(OWNER),
      mint: address(USDT_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    expect(associatedTokenAddress(new PublicKey(OWNER), new PublicKey(USDT_MINT)).toBase58()).toBe(expected);
  });

  it("builds the same accounts and data as the server's program client", async () => {
    const [create, transfer] = usdtPaymentInstructions({
      payer: new PublicKey(PAYER),
      depositOwner: new PublicKey(OWNER),
      mint: new PublicKey(USDT_MINT),
      amount: 12_500_000n,
      decimals: 6,
    });
    const payer = createNoopSigner(address(PAYER));
    const [destination] = await findAssociatedTokenPda({
      owner: address(OWNER),
      mint: address(USDT_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const [source] = await findAssociatedTokenPda({
      owner: address(PAYER),
      mint: address(USDT_MINT),
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    const kitCreate = getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: destination,
      owner: address(OWNER),
      mint: address(USDT_MINT),
    });
    const kitTransfer = getTransferCheckedInstruction({
      source,
      mint: address(USDT_MINT),
      destination,
      authority: payer,
      amount: 12_500_000n,
      decimals: 6,
    });
    const roles = (role: number) => ({ isSigner: role >= 2, isWritable: role % 2 === 1 });
    for (const [ours, theirs] of [
      [create!, kitCreate],
      [transfer!, kitTransfer],
    ] as const) {
      expect(ours.programId.toBase58()).toBe(theirs.programAddress);
      expect([...ours.data]).toEqual([...theirs.data]);
      expect(
        ours.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
      ).toEqual(theirs.accounts.map((a) => ({ pubkey: a.address, ...roles(a.role) })));
    }
  });
});

describe("wallet errors in words", () => {
  const ctx = { network: "BNB Smart Chain (chain ID 56)", gas: "BNB" };

  it("maps an EIP-1193 4001 rejection, however it is wrapped", () => {
    const raw = Object.assign(new Error("MetaMask Tx Signature: User denied transaction signature."), { code: 4001 });
    expect(classifyWalletError(raw)).toBe("rejected");
    expect(classifyWalletError({ code: 4001, message: "" })).toBe("rejected");
    expect(classifyWalletError(new UserRejectedRequestError(new Error("x")))).toBe("rejected");
    expect(classifyWalletError(new Error("Transaction failed", { cause: raw }))).toBe("rejected");
    expect(classifyWalletError("Confirmation declined by user")).toBe("rejected"); // TronLink
    expect(walletErrorMessage(raw, ctx)).toBe(
      "The payment was rejected in your wallet, so nothing was sent. You can try again.",
    );
  });

  it("names the network, the fee coin, or the short reason", () => {
    expect(walletErrorMessage(new WalletPayError("wrong-network", "no switch"), ctx)).toBe(
      "Your wallet is not on BNB Smart Chain (chain ID 56). " +
        "Select BNB Smart Chain (chain ID 56) in your wallet by hand, then try again.",
    );
    expect(walletErrorMessage(new Error("insufficient funds for gas * price + value"), ctx)).toBe(
      "Your wallet does not have enough USDT or BNB for this payment.",
    );
    expect(walletErrorMessage(new Error(`Something odd\n    at f (x.js:1:1)`), ctx)).toBe(
      "The wallet could not send the payment: Something odd.",
    );
    expect(walletErrorMessage(Object.assign(new Error("x"), { name: "ProviderNotFoundError" }), ctx)).toMatch(
      /^No wallet was found/,
    );
  });

  it("decodes Tron's hex messages", () => {
    expect(decodeTronMessage("4f55545f4f465f454e45524759")).toBe("OUT_OF_ENERGY");
    expect(decodeTronMessage("plain text")).toBe("plain text");
  });
});
