import { randomBytes } from "node:crypto";
import { type Address, createPublicClient, getAddress, type Hex, http } from "viem";
import { describe, expect, it } from "vitest";
import { adjustBalance } from "@/lib/books/ledger/adjust-balance";
import { chainConfig } from "@/lib/chains/chain-config";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";
import { DELEGATED_PAYOUT_BATCHER, payoutBatcherContract } from "@/lib/chains/evm/payout-batcher";
import { registerWalletRoles } from "@/lib/chains/wallets/register-wallet-roles";
import { checkClaimAddress, loadRefundClaim } from "@/lib/money-out/refunds/claim-refund";
import { getDb } from "@/lib/platform/db/client";
import { api, expectError, newMerchant } from "../helpers/api";
import { creditedPayment } from "../helpers/credited-payment";

// USDT sent to a contract that cannot move it is lost: the service's own contracts (deposit sweeper, payout
// batcher) and, on EVM, any account with code other than an EIP-7702 delegation are refused as destinations of
// payouts, refunds and a payer's claim (security review 2026-12, finding 5).
const randomAddress = () => getAddress(`0x${randomBytes(20).toString("hex")}`);

async function sandboxEth() {
  const config = (await chainConfig(getDb(), "sandbox", "eth"))!;
  // As the outbound leader records them when it starts (none runs in this phase): the same derived addresses.
  const roles = await registerWalletRoles(getDb(), config);
  const role = (name: string) => roles.find((r) => r.role === name)!.address;
  const client = createPublicClient({ transport: http(config.rpcUrl) });
  const setCode = (address: Address, code: Hex) =>
    client.request({ method: "anvil_setCode" as never, params: [address, code] as never });
  return { sweeper: sweeperContract(role("treasury"), role("sweeper")).address, setCode };
}

describe("contract destinations", () => {
  it(
    "payouts: the service's contracts and any EVM contract are refused on to_address; " +
      "a 7702-delegated account is a wallet",
    async () => {
      const m = await newMerchant();
      await adjustBalance(getDb(), {
        merchantId: m.id,
        mode: "sandbox",
        chain: "eth",
        amount: 50_000_000n,
        reason: "test",
      });
      const { sweeper, setCode } = await sandboxEth();
      const contract = randomAddress();
      await setCode(contract, "0x602a60005260206000f3"); // returns 42: code, not a key's account
      const delegated = randomAddress();
      await setCode(delegated, `0xef0100${payoutBatcherContract().address.slice(2).toLowerCase()}`);
      const payout = (to: string) =>
        api("POST", "/v1/payouts", { key: m.sandboxKey, body: { chain: "eth", to_address: to, amount: "1.000000" } });
      for (const own of [sweeper, payoutBatcherContract().address, DELEGATED_PAYOUT_BATCHER]) {
        const err = expectError(await payout(own), "invalid_request_error", 400, "to_address");
        expect(err.message).toMatch(/^to_address is one of this service's own contracts/);
      }
      const err = expectError(await payout(contract), "invalid_request_error", 400, "to_address");
      expect(err.message).toMatch(/^to_address is a contract, not a wallet/);
      expect((await api("GET", "/v1/payouts", { key: m.sandboxKey })).json.data).toEqual([]);
      expect((await payout(delegated)).status).toBe(200);
      expect((await payout(randomAddress())).status).toBe(200);
    },
  );

  it("refunds and a payer's claim: refused with words for the field (the claim page says 'This address')", async () => {
    const m = await newMerchant();
    const paymentId = await creditedPayment(m, ["5.000000"]);
    const { sweeper, setCode } = await sandboxEth();
    const contract = randomAddress();
    await setCode(contract, "0x602a60005260206000f3");
    const byAddress = await api("POST", "/v1/refunds", {
      key: m.sandboxKey,
      body: { payment: paymentId, amount: "1.000000", destination: "address", to_address: sweeper },
    });
    expect(expectError(byAddress, "invalid_request_error", 400, "to_address").message).toMatch(
      /^to_address is one of this service's own contracts/,
    );
    const claim = await api("POST", "/v1/refunds", {
      key: m.sandboxKey,
      body: { payment: paymentId, amount: "1.000000" },
    });
    const loaded = (await loadRefundClaim(getDb(), claim.json.claim_url.split("/").pop()))!;
    await expect(checkClaimAddress(getDb(), loaded, sweeper)).rejects.toMatchObject({
      param: "address",
      message: expect.stringMatching(/^This address is one of this service's own contracts/),
    });
    await expect(checkClaimAddress(getDb(), loaded, contract)).rejects.toMatchObject({
      param: "address",
      message: expect.stringMatching(/^This address is a contract, not a wallet/),
    });
    await expect(checkClaimAddress(getDb(), loaded, randomAddress())).resolves.toBeUndefined();
  });
});
