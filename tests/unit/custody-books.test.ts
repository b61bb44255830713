import { describe, expect, it } from "vitest";
import { custodyImbalances, move } from "@/lib/books/custody/custody-types";
import { tokenAccountRent } from "@/lib/chains/solana/solana-rent";

const treasury = { account: "treasury" as const, address: "T" };
const inFlight = { account: "in_flight" as const, address: "D" };
const fees = { account: "fees" as const, address: null };

describe("custody journals", () => {
  it("a movement is two entries summing to zero, none for zero", () => {
    expect(move("usdt", 5n, inFlight, treasury)).toEqual([
      { asset: "usdt", account: "in_flight", address: "D", amount: -5n },
      { asset: "usdt", account: "treasury", address: "T", amount: 5n },
    ]);
    expect(move("native", 0n, treasury, fees)).toEqual([]);
  });

  it("balances per asset: USDT and native each sum to zero, or the imbalance is named per asset", () => {
    const sweep = [
      ...move("usdt", 6_500_000_000_000_000_000n, inFlight, treasury), // bnb: 18-decimal raw units, exact
      ...move("native", 21_000n * 7n, inFlight, fees),
    ];
    expect(custodyImbalances(sweep).size).toBe(0);
    // A fee's entries in another asset than its own never make the journal balance.
    const crossed = [
      { asset: "usdt" as const, amount: -10n },
      { asset: "native" as const, amount: 10n },
    ];
    expect([...custodyImbalances(crossed)]).toEqual([
      ["usdt", -10n],
      ["native", 10n],
    ]);
    expect([...custodyImbalances([...sweep, { asset: "native", amount: 1n }])]).toEqual([["native", 1n]]);
  });
});

describe("Solana token account rent, from a transaction's balances", () => {
  it("counts lamports of token accounts created (paid) and closed (returned); plain SOL transfers are not rent", () => {
    const rent = 2_039_280n;
    expect(
      tokenAccountRent({
        // 0 fee payer, 1 treasury wallet, 2 deposit token account
        // (closed), 3 treasury token account (created), 4 a new SOL account
        preBalances: [1_000_000_000n, 5n, rent, 0n, 0n],
        postBalances: [1_000_000_000n - 5_000n - rent - 1_000n, 5n + rent, 0n, rent, 1_000n],
        preTokenBalances: [{ accountIndex: 2 }],
        postTokenBalances: [{ accountIndex: 2 }, { accountIndex: 3 }],
      }),
    ).toEqual({ paid: rent, returned: rent });
    expect(
      tokenAccountRent({ preBalances: [10n, rent], postBalances: [5n, rent], preTokenBalances: [{ accountIndex: 1 }] }),
    ).toEqual({ paid: 0n, returned: 0n });
  });
});
