import { TronWeb } from "tronweb";
import { beforeAll, describe, expect, it } from "vitest";
import { fundTronAddress, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";
import { minedInfo as minedInfoOn, postJson, tronSandboxForFile } from "./tron-harness";

// The sandbox Tron chain charges as mainnet does (sandbox/tron/RESOURCE-MODEL.md): free bandwidth, then TRX per
// byte; energy burnt at the energy fee, capped by fee_limit; 1.1 TRX to create an account; TRC-20 credits create none.
const chain = tronSandboxForFile();
const priceyChain = tronSandboxForFile({ parameters: { energyFee: 420n, freeNetLimit: 0n } });
let info: TronSandboxInfo;
beforeAll(() => {
  info = chain.info;
});

const post = postJson;
const minedInfo = minedInfoOn;

async function account(on: TronSandboxInfo) {
  const a = (await TronWeb.createAccount()) as unknown as { privateKey: string; address: { base58: string } };
  return {
    key: a.privateKey,
    address: a.address.base58,
    tw: new TronWeb({ fullHost: on.fullHost, privateKey: a.privateKey }),
  };
}

type Account = Awaited<ReturnType<typeof account>>;
const trx = (on: TronSandboxInfo, address: string) =>
  new TronWeb({ fullHost: on.fullHost }).trx.getUnconfirmedBalance(address);

async function sendUsdt(on: TronSandboxInfo, from: Account, to: string, units: number, feeLimit = 100_000_000) {
  const { transaction } = await from.tw.transactionBuilder.triggerSmartContract(
    on.token,
    "transfer(address,uint256)",
    { feeLimit },
    [
      { type: "address", value: to },
      { type: "uint256", value: units },
    ],
  );
  const sent = await from.tw.trx.sendRawTransaction(await from.tw.trx.sign(transaction));
  expect(sent.result).toBe(true);
  return minedInfo(on, transaction.txID);
}

async function usdtOf(on: TronSandboxInfo, address: string): Promise<bigint> {
  const res = await new TronWeb({ fullHost: on.fullHost }).transactionBuilder.triggerConstantContract(
    on.token,
    "balanceOf(address)",
    { _isConstant: true },
    [{ type: "address", value: address }],
    address,
  );
  return BigInt(`0x${res.constant_result![0]}`);
}

describe("sandbox Tron fees: bandwidth, energy, fee_limit and account creation as on mainnet", () => {
  it("publishes mainnet's fee parameters", async () => {
    const { chainParameter } = await post(`${info.fullHost}/wallet/getchainparameters`, {});
    const value = (key: string) => chainParameter.find((p: { key: string }) => p.key === key)?.value;
    expect({
      energy: value("getEnergyFee"),
      byte: value("getTransactionFee"),
      free: value("getFreeNetLimit"),
      create: value("getCreateAccountFee"),
      createInSystem: value("getCreateNewAccountFeeInSystemContract"),
      maxFeeLimit: value("getMaxFeeLimit"),
    }).toEqual({
      energy: 100,
      byte: 1000,
      free: 600,
      create: 100_000,
      createInSystem: 1_000_000,
      maxFeeLimit: 15_000_000_000,
    });
  });

  it("a USDT credit creates no account; a TRC-20 transfer with no TRX and no energy fails as on mainnet", async () => {
    const holder = await account(info);
    const other = await account(info);
    await fundTronAddress(info, holder.address, { usdtUnits: 5_000_000n });
    expect(await post(`${info.fullHost}/wallet/getaccount`, { address: holder.address, visible: true })).toEqual({});
    const { transaction } = await holder.tw.transactionBuilder.triggerSmartContract(
      info.token,
      "transfer(address,uint256)",
      { feeLimit: 100_000_000 },
      [
        { type: "address", value: other.address },
        { type: "uint256", value: 1 },
      ],
    );
    const refused = await holder.tw.trx.sendRawTransaction(await holder.tw.trx.sign(transaction));
    expect(refused).toMatchObject({ result: false, code: "CONTRACT_VALIDATE_ERROR" });
    expect(Buffer.from(String(refused.message), "hex").toString()).toMatch(/no OwnerAccount/);

    // Activated with 1 TRX: bandwidth comes from the free allowance, but no energy can be paid for. The call is
    // mined as OUT_OF_ENERGY, burns nothing it does not have, and moves no token.
    await fundTronAddress(info, holder.address, { trxSun: 1n });
    const failed = await sendUsdt(info, holder, other.address, 1_000_000);
    expect(failed).toMatchObject({ result: "FAILED", receipt: { result: "OUT_OF_ENERGY" } });
    expect(failed.log).toBeUndefined();
    expect(await usdtOf(info, holder.address)).toBe(5_000_000n);
    expect(await usdtOf(info, other.address)).toBe(0n);
    expect(await trx(info, holder.address)).toBe(1 - (failed.fee ?? 0));
  });

  it(
    "burns 130,285 energy to an empty balance and 64,285 to a holder; " +
      "bandwidth is free once a day, then 1,000 sun a byte",
    async () => {
      const payer = await account(info);
      const to = await account(info);
      await fundTronAddress(info, payer.address, { usdtUnits: 10_000_000n, trxSun: 100_000_000n });
      const start = await trx(info, payer.address);
      expect(start).toBe(100_000_000);

      // estimateenergy answers what the broadcast is then charged.
      const parameter =
        TronWeb.address.toHex(to.address).slice(2).padStart(64, "0") + (1_000_000).toString(16).padStart(64, "0");
      const estimate = await post(`${info.fullHost}/wallet/estimateenergy`, {
        owner_address: payer.address,
        contract_address: info.token,
        function_selector: "transfer(address,uint256)",
        parameter,
        visible: true,
      });
      expect(estimate.energy_required).toBe(130_285);
      const first = await sendUsdt(info, payer, to.address, 1_000_000);
      expect(first.receipt).toMatchObject({ energy_usage_total: 130_285, energy_fee: 13_028_500, result: "SUCCESS" });
      expect(first.receipt.net_fee).toBeUndefined();
      const bytes = first.receipt.net_usage;
      expect(bytes).toBeGreaterThan(300);
      expect(bytes).toBeLessThan(400);
      expect(first.fee).toBe(13_028_500);

      // The free 600 bytes are now mostly used: the next transaction pays for all of its bytes in TRX.
      const second = await sendUsdt(info, payer, to.address, 1_000_000);
      expect(second.receipt).toMatchObject({
        energy_usage_total: 64_285,
        energy_fee: 6_428_500,
        net_fee: bytes * 1000,
      });
      expect(second.fee).toBe(6_428_500 + bytes * 1000);

      const resources = await post(`${info.fullHost}/wallet/getaccountresource`, {
        address: payer.address,
        visible: true,
      });
      expect(resources).toMatchObject({ freeNetLimit: 600, TotalEnergyLimit: 180_000_000_000 });
      expect(resources.freeNetUsed).toBeGreaterThanOrEqual(bytes - 1);
      // Every sun the receipts report left the balance, and nothing else did.
      expect(await trx(info, payer.address)).toBe(start - first.fee - second.fee);
      expect(await usdtOf(info, to.address)).toBe(2_000_000n);
    },
  );

  it(
    "fee_limit caps the energy: short of it, " + "the call fails OUT_OF_ENERGY and still burns the whole limit",
    async () => {
      const payer = await account(info);
      const to = await account(info);
      await fundTronAddress(info, payer.address, { usdtUnits: 10_000_000n, trxSun: 50_000_000n });
      const failed = await sendUsdt(info, payer, to.address, 1_000_000, 5_000_000);
      expect(failed).toMatchObject({
        result: "FAILED",
        fee: 5_000_000,
        receipt: { result: "OUT_OF_ENERGY", energy_usage_total: 50_000, energy_fee: 5_000_000 },
      });
      expect(await usdtOf(info, to.address)).toBe(0n);
      expect(await usdtOf(info, payer.address)).toBe(10_000_000n);
      expect(await trx(info, payer.address)).toBe(50_000_000 - 5_000_000);
      // The failure is a transaction in its block like any other.
      const block = await post(`${info.fullHost}/wallet/getblockbynum`, { num: failed.blockNumber });
      const listed = block.transactions.find((t: { txID: string }) => t.txID === failed.id);
      expect(listed.ret).toEqual([{ contractRet: "OUT_OF_ENERGY" }]);
      // No other transaction of the payer's shows in the block (the burn behind the fee is not a Tron transaction).
      expect(
        block.transactions.filter(
          (t: any) =>
            t.raw_data.contract[0].parameter.value.owner_address === TronWeb.address.toHex(payer.address).toLowerCase(),
        ),
      ).toHaveLength(1);
    },
  );

  it(
    "creating an account costs the sender 1.1 TRX with no stake; " +
      "TRX sent on to an existing account costs only bandwidth",
    async () => {
      const payer = await account(info);
      const fresh = await account(info);
      await fundTronAddress(info, payer.address, { trxSun: 20_000_000n });
      const created = await payer.tw.trx.sendTransaction(fresh.address, 3_000_000);
      expect(created.result).toBe(true);
      const creation = await minedInfo(info, created.transaction.txID);
      expect(creation).toMatchObject({ fee: 1_100_000, receipt: { net_fee: 100_000 } });
      expect(await post(`${info.fullHost}/wallet/getaccount`, { address: fresh.address, visible: true })).toMatchObject(
        {
          address: fresh.address,
          balance: 3_000_000,
        },
      );
      const again = await payer.tw.trx.sendTransaction(fresh.address, 1_000_000);
      const plain = await minedInfo(info, again.transaction.txID);
      expect(plain.fee).toBeUndefined(); // its ~268 bytes come from the free allowance
      expect(plain.receipt.net_usage).toBeGreaterThan(200);
      expect(await trx(info, payer.address)).toBe(20_000_000 - 3_000_000 - 1_100_000 - 1_000_000);

      // A balance that cannot cover amount + the 1 TRX creation fee is refused before anything is charged.
      const broke = await account(info);
      await fundTronAddress(info, broke.address, { trxSun: 1_500_000n });
      const refused = await broke.tw.trx.sendTransaction((await account(info)).address, 1_000_000);
      expect(refused).toMatchObject({ result: false, code: "CONTRACT_VALIDATE_ERROR" });
      expect(await trx(info, broke.address)).toBe(1_500_000);
    },
  );

  it("charges by overridden parameters when a test asks for them", async () => {
    const pricey = priceyChain.info;
    const payer = await account(pricey);
    const to = await account(pricey);
    await fundTronAddress(pricey, payer.address, { usdtUnits: 10_000_000n, trxSun: 100_000_000n });
    await fundTronAddress(pricey, to.address, { usdtUnits: 1n });
    const sent = await sendUsdt(pricey, payer, to.address, 1_000_000);
    const bytes = sent.receipt.net_fee / 1000;
    expect(sent.receipt).toMatchObject({ energy_usage_total: 64_285, energy_fee: 64_285 * 420 });
    expect(bytes).toBeGreaterThan(300);
    expect(await trx(pricey, payer.address)).toBe(100_000_000 - 64_285 * 420 - bytes * 1000);
  });
});
