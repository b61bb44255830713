import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bookFunding, FundingAlreadyBooked } from "@/lib/books/custody/book-funding";
import { readCustodyBooks } from "@/lib/books/custody/custody-books";
import { nativeAlert, reconcileRoleNative } from "@/lib/books/custody/reconcile-native";
import { checkCustodyConsistency } from "@/lib/books/custody/check-custody-consistency";
import { createOutbound } from "@/lib/money-out/outbound/create-outbound";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";

// A role's native coin against its books (lib/books/custody): what reconcile reads in its snapshot, on the real
// database, in live mode on random addresses (no leader of the test run touches them). The chain's balance is
// given: the arithmetic and the alert are under test, the chains are in tests/custody/.

const evmAddress = () => `0x${randomBytes(20).toString("hex")}`;
const funded = (address: string, role: "treasury" | "sweeper", amount: bigint, txHash: string | null = null) =>
  bookFunding(getDb(), { mode: "live", chain: "polygon", role, address, amount, txHash, source: "operator" });
const intent = async (from: string, status: string, fee: bigint | null, signer: "sweeper" | "deposit" = "sweeper") => {
  const row = await createOutbound(getDb(), {
    mode: "live",
    chain: "polygon",
    purpose: "gas_topup",
    signer: signer === "deposit" ? { role: "deposit", index: 7 } : { role: "sweeper" },
    fromAddress: from,
    toAddress: evmAddress(),
    asset: "native",
    rawAmount: 1n,
  });
  await query(getDb(), "update outbound_transactions set status = $2, fee_native = $3 where id = $1", [
    row.id,
    status,
    fee?.toString() ?? null,
  ]);
};

describe("a role's native coin, to the unit", () => {
  it(
    "books fundings (signed, once per transaction), " + "and counts what may have left the chain ahead of the books",
    async () => {
      const [treasury, sweeper, deposit] = [evmAddress(), evmAddress(), evmAddress()];
      await funded(treasury, "treasury", 1_000n, `0x${"ab".repeat(32)}${treasury.slice(2, 10)}`);
      await funded(sweeper, "sweeper", 500n);
      await funded(sweeper, "sweeper", -20n); // taken out with its key
      await expect(
        funded(treasury, "treasury", 1_000n, `0x${"ab".repeat(32)}${treasury.slice(2, 10)}`),
      ).rejects.toThrow(FundingAlreadyBooked);
      // The sweeper's: one in a block not yet at depth (fee 7), one sent and not yet seen; a deposit address's in a
      // block (fee 5), whose fee the sweeper pays where it is the fee payer; and a confirmed one, in the books.
      await intent(sweeper, "mined", 7n);
      await intent(sweeper, "broadcast", null);
      await intent(deposit, "mined", 5n, "deposit");
      await intent(sweeper, "confirmed", 3n);

      // Addresses compare by addressKey: the books' checksummed or not, the same account.
      const roles = [treasury.toUpperCase().replace("0X", "0x"), sweeper];
      const books = await readCustodyBooks(getDb(), "live", "polygon", roles, sweeper);
      expect(books.roleNative.get(treasury)).toEqual({ books: 1_000n, landed: 0n, unlanded: 0 });
      expect(books.roleNative.get(sweeper)).toEqual({ books: 480n, landed: 12n, unlanded: 1 });
      const withoutPayer = await readCustodyBooks(getDb(), "live", "polygon", roles);
      expect(withoutPayer.roleNative.get(sweeper)).toEqual({ books: 480n, landed: 7n, unlanded: 1 });
      // Every funding is a balanced journal (these intents' statuses were set by hand, without their books).
      const problems = await checkCustodyConsistency(getDb(), "live");
      expect(problems.filter((p) => p.kind === "unbalanced_journal")).toEqual([]);

      const needed = 100n;
      const sweeperAt = (balance: bigint) =>
        reconcileRoleNative({
          role: "sweeper",
          address: sweeper,
          balance,
          staked: 0n,
          books: books.roleNative.get(sweeper)!,
          needed,
        });
      const format = (units: bigint) => units.toString();
      // Both landed fees and the unseen transaction's ceiling have left: settling covers them, no alert.
      expect(sweeperAt(480n - 12n - needed)).toMatchObject({ unmatched: -112n, settling: 112n });
      expect(nativeAlert(sweeperAt(480n - 12n - needed), format, "POL")).toBeNull();
      // One unit more gone than anything in flight explains: the alert, with that unit.
      expect(nativeAlert(sweeperAt(480n - 12n - needed - 1n), format, "POL")).toBe(
        "native: the sweeper holds 1 POL less on chain than the custody books hold",
      );
      // Staked coin (Tron) is the role's: counted with its balance.
      const treasuryAt = reconcileRoleNative({
        role: "treasury",
        address: treasury,
        balance: 400n,
        staked: 600n,
        books: books.roleNative.get(treasury)!,
        needed,
      });
      expect(treasuryAt).toMatchObject({ onChain: 1_000n, unmatched: 0n, settling: 0n });
      expect(nativeAlert(treasuryAt, format, "POL")).toBeNull();
    },
  );
});
