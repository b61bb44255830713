import { TronWeb } from "tronweb";
import { beforeAll, describe, expect, it } from "vitest";
import { fundTronAddress, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";
import { minedInfo, postJson, tronSandboxForFile } from "./tron-harness";

// Stake 2.0 on the sandbox Tron chain, driven by unmodified TronWeb: TRX frozen for energy pays a USDT transfer's
// energy instead of burning TRX, delegations lend it to another account (with and without a lock), and unfrozen
// TRX comes back only after the unfreeze delay (sandbox/tron/RESOURCE-MODEL.md, "Stake 2.0").
const TRX = 1_000_000;
const chain = tronSandboxForFile();
let info: TronSandboxInfo;
beforeAll(() => {
  info = chain.info;
});

const wallet = (endpoint: string, body: unknown) => postJson(`${info.fullHost}/wallet/${endpoint}`, body);
const anvil = (method: string, params: unknown[]) =>
  postJson(info.anvilRpcUrl, { jsonrpc: "2.0", id: 1, method, params });

async function account(trxSun: bigint, usdtUnits = 0n) {
  const a = (await TronWeb.createAccount()) as unknown as { privateKey: string; address: { base58: string } };
  await fundTronAddress(info, a.address.base58, { trxSun, ...(usdtUnits ? { usdtUnits } : {}) });
  return { address: a.address.base58, tw: new TronWeb({ fullHost: info.fullHost, privateKey: a.privateKey }) };
}
type Account = Awaited<ReturnType<typeof account>>;

/** Signs and broadcasts what a TronWeb builder returned; resolves with the mined transaction info. */
async function send(who: Account, unsigned: any) {
  const sent = await who.tw.trx.sendRawTransaction(await who.tw.trx.sign(unsigned));
  expect(sent.result).toBe(true);
  return minedInfo(info, unsigned.txID);
}

/** TronWeb builds Stake 2.0 transactions locally: the node's checks answer at broadcast, with java-tron's code. */
async function refused(who: Account, unsigned: any): Promise<string> {
  const sent = await who.tw.trx.sendRawTransaction(await who.tw.trx.sign(unsigned));
  expect(sent).toMatchObject({ result: false, code: "CONTRACT_VALIDATE_ERROR" });
  return Buffer.from(String(sent.message), "hex").toString();
}

async function sendUsdt(from: Account, to: string, units: number) {
  const { transaction } = await from.tw.transactionBuilder.triggerSmartContract(
    info.token,
    "transfer(address,uint256)",
    { feeLimit: 30 * TRX },
    [
      { type: "address", value: to },
      { type: "uint256", value: units },
    ],
  );
  return send(from, transaction);
}

const balance = (a: Account) => a.tw.trx.getUnconfirmedBalance(a.address);
const resources = (a: Account) => wallet("getaccountresource", { address: a.address, visible: true });
/** Moves the chain's clock on (block time is what java-tron's stake and recovery clocks read). */
async function passSeconds(seconds: number) {
  await anvil("evm_increaseTime", [seconds]);
  await anvil("anvil_mine", ["0x2"]);
}

describe("sandbox Tron Stake 2.0: freeze, delegate, undelegate, unfreeze", () => {
  let staker: Account;
  let lender: Account;
  let user: Account;

  it("TRX frozen for energy pays a USDT transfer's energy: no TRX burnt for it", async () => {
    staker = await account(20_000n * BigInt(TRX), 10_000_000n);
    // The node's own builder checks as java-tron's does: no more than the balance.
    expect(
      await wallet("freezebalancev2", {
        owner_address: staker.address,
        frozen_balance: 30_000 * TRX,
        resource: "ENERGY",
        visible: true,
      }),
    ).toEqual({
      Error:
        "class org.tron.core.exception.ContractValidateException : " +
        "frozenBalance must be less than or equal to accountBalance",
    });
    const frozen = await send(staker, await staker.tw.transactionBuilder.freezeBalanceV2(14_000 * TRX, "ENERGY"));
    expect(frozen.fee).toBeUndefined(); // its bytes came from the free allowance
    expect(await balance(staker)).toBe(6_000 * TRX);
    const stored = await wallet("getaccount", { address: staker.address, visible: true });
    expect(stored.frozenV2).toContainEqual({ type: "ENERGY", amount: 14_000 * TRX });
    // 14,000 of the network's ~18e9 staked TRX: 180e9 × 14,000 / (18e9 + 14,000) energy a day.
    const limit = Math.trunc(14_000 * (180e9 / (18e9 + 14_000)));
    expect((await resources(staker)).EnergyLimit).toBe(limit);

    const fresh = (await TronWeb.createAccount()) as unknown as { address: { base58: string } };
    const paid = await sendUsdt(staker, fresh.address.base58, 1_000_000);
    expect(paid.receipt).toMatchObject({ energy_usage: 130_285, energy_usage_total: 130_285, result: "SUCCESS" });
    expect(paid.receipt.energy_fee).toBeUndefined();
    // Charged to the staker: its usage recovers over a 24 h window (28,800 slots of 3 s) from the transfer's block,
    // ~4.5 energy a slot, so the query sees what recovered by the head block it reads, however slow the machine.
    const used = (await resources(staker)).EnergyUsed;
    const head = (await wallet("getnowblock", {})).block_header.raw_data.timestamp as number;
    const slots = Math.ceil((head - paid.blockTimeStamp) / 3_000);
    expect(used).toBeLessThanOrEqual(130_285);
    expect(used).toBeGreaterThanOrEqual(130_285 - Math.ceil((130_285 * slots) / 28_800) - 1);
    // What it paid is bandwidth only (its free 600 bytes were spent by the freeze and this transfer).
    expect(await balance(staker)).toBe(6_000 * TRX - (paid.fee ?? 0));
  });

  it(
    "delegates energy to another account, which then pays nothing for it; " +
      "stake backing used energy cannot be lent",
    async () => {
      lender = await account(15_000n * BigInt(TRX));
      user = await account(1n * BigInt(TRX), 10_000_000n);
      // The staker's stake mostly backs the energy it just used: only the rest can be delegated.
      const max = await wallet("getcandelegatedmaxsize", { owner_address: staker.address, type: 1, visible: true });
      expect(max.max_size).toBeLessThan(1_000 * TRX);
      expect(
        await refused(staker, await staker.tw.transactionBuilder.delegateResource(7_000 * TRX, user.address, "ENERGY")),
      ).toMatch(/available FreezeEnergyV2 balance/);

      await send(lender, await lender.tw.transactionBuilder.freezeBalanceV2(14_000 * TRX, "ENERGY"));
      await send(lender, await lender.tw.transactionBuilder.delegateResource(14_000 * TRX, user.address, "ENERGY"));
      expect(
        await wallet("getdelegatedresourcev2", { fromAddress: lender.address, toAddress: user.address, visible: true }),
      ).toEqual({
        delegatedResource: [{ from: lender.address, to: user.address, frozen_balance_for_energy: 14_000 * TRX }],
      });
      expect((await resources(user)).EnergyLimit).toBeGreaterThan(130_285);

      const before = await balance(user);
      const paid = await sendUsdt(user, staker.address, 1_000_000);
      expect(paid.receipt).toMatchObject({ energy_usage: 64_285, result: "SUCCESS" });
      expect(paid.fee).toBeUndefined(); // energy lent, bandwidth free: 1 TRX is enough to move USDT
      expect(await balance(user)).toBe(before);
    },
  );

  it("takes the delegation back: the user's energy is gone, and a locked delegation waits for its lock", async () => {
    await send(lender, await lender.tw.transactionBuilder.undelegateResource(14_000 * TRX, user.address, "ENERGY"));
    expect(await wallet("getdelegatedresourcev2", { fromAddress: lender.address, toAddress: user.address })).toEqual(
      {},
    );
    expect((await resources(user)).EnergyLimit).toBeUndefined();
    const failed = await sendUsdt(user, staker.address, 1_000_000);
    expect(failed).toMatchObject({ result: "FAILED", receipt: { result: "OUT_OF_ENERGY" } });

    // Locked for 100 slots (300 s of block time): it cannot be taken back before.
    await send(
      lender,
      await lender.tw.transactionBuilder.delegateResource(
        1_000 * TRX,
        user.address,
        "ENERGY",
        lender.address,
        true,
        100,
      ),
    );
    expect(
      await refused(lender, await lender.tw.transactionBuilder.undelegateResource(1_000 * TRX, user.address, "ENERGY")),
    ).toMatch(/insufficient delegatedFrozenBalance/);
    const [locked] = (await wallet("getdelegatedresourcev2", { fromAddress: lender.address, toAddress: user.address }))
      .delegatedResource;
    expect(locked.expire_time_for_energy).toBeGreaterThan(Date.now() - 60_000);
    await passSeconds(301);
    await send(lender, await lender.tw.transactionBuilder.undelegateResource(1_000 * TRX, user.address, "ENERGY"));
    expect(await wallet("getdelegatedresourcev2", { fromAddress: lender.address, toAddress: user.address })).toEqual(
      {},
    );
  });

  it("unfrozen TRX comes back only after the 14-day delay, with withdrawexpireunfreeze", async () => {
    const before = await balance(lender);
    const unfrozen = await send(lender, await lender.tw.transactionBuilder.unfreezeBalanceV2(1_000 * TRX, "ENERGY"));
    const [pending] = (await wallet("getaccount", { address: lender.address, visible: true })).unfrozenV2;
    expect(pending).toMatchObject({ type: "ENERGY", unfreeze_amount: 1_000 * TRX });
    // 14 days after the head block the unfreeze was executed on (its own block is at most a few seconds later).
    const delay = pending.unfreeze_expire_time - unfrozen.blockTimeStamp;
    expect(delay).toBeLessThanOrEqual(14 * 86_400_000);
    expect(delay).toBeGreaterThan(14 * 86_400_000 - 5_000);
    expect(await balance(lender)).toBe(before - (unfrozen.fee ?? 0)); // nothing back yet
    expect(await refused(lender, await lender.tw.transactionBuilder.withdrawExpireUnfreeze(lender.address))).toMatch(
      /no unFreeze balance/,
    );

    await passSeconds(14 * 86_400 + 5);
    const withdrawn = await send(lender, await lender.tw.transactionBuilder.withdrawExpireUnfreeze(lender.address));
    expect(withdrawn.withdraw_expire_amount).toBe(1_000 * TRX);
    expect(await balance(lender)).toBe(before - (unfrozen.fee ?? 0) - (withdrawn.fee ?? 0) + 1_000 * TRX);
    expect((await wallet("getaccount", { address: lender.address, visible: true })).unfrozenV2).toBeUndefined();
  });
});
