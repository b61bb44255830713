import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TronWeb, utils as tronUtils } from "tronweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundTronAddress, startTronSandbox, type TronSandboxInfo } from "@/sandbox/tron/tron-sandbox";

const TRANSFER_TOPIC = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-tron-"));
let sandbox: Awaited<ReturnType<typeof startTronSandbox>>;
let info: TronSandboxInfo;

beforeAll(async () => {
  sandbox = await startTronSandbox({ dataDir, blockTime: 0.25 });
  info = sandbox.info;
});
afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = async (url: string, body: unknown): Promise<any> =>
  (
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  ).json();
const wallet = (endpoint: string, body: unknown = {}) => post(`${info.fullHost}${endpoint}`, body);
const rpc = (url: string, method: string, params: unknown[]) => post(url, { jsonrpc: "2.0", id: 1, method, params });
const anvilHead = async () => Number((await rpc(info.anvilRpcUrl, "eth_blockNumber", [])).result);
const topicOf = (address: string) => "0".repeat(24) + TronWeb.address.toHex(address).slice(2).toLowerCase();
const hexText = (hex: string) => Buffer.from(hex, "hex").toString("utf8");

async function minedInfo(txID: string): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const txInfo = await wallet("/wallet/gettransactioninfobyid", { value: txID });
    if (txInfo.blockNumber !== undefined) return txInfo;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${txID} not mined`);
}

async function headerFromNowBlock(): Promise<{
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
}> {
  const block = await (await fetch(`${info.fullHost}/wallet/getnowblock`)).json(); // GET, as TronWeb sends it
  const { number, timestamp } = block.block_header.raw_data;
  return {
    ref_block_bytes: number.toString(16).padStart(4, "0").slice(-4),
    ref_block_hash: block.blockID.slice(16, 32),
    expiration: timestamp + 60_000,
    timestamp,
  };
}

describe("sandbox Tron chain: anvil behind a Tron HTTP API facade, driven by unmodified TronWeb", () => {
  let payer: { privateKey: string; address: { base58: string; hex: string } };
  let recipient: typeof payer;
  let tw: TronWeb;
  const transfer = (amount: number, options: Record<string, unknown> = {}) =>
    tw.transactionBuilder.triggerSmartContract(
      info.token,
      "transfer(address,uint256)",
      { feeLimit: 100_000_000, ...options },
      [
        { type: "address", value: recipient.address.base58 },
        { type: "uint256", value: amount },
      ],
    );
  const balanceOf = async (address: string) => {
    const res = await tw.transactionBuilder.triggerConstantContract(info.token, "balanceOf(address)", {}, [
      { type: "address", value: address },
    ]);
    return BigInt(`0x${res.constant_result![0]}`);
  };
  const firstTransfer = { txID: "", blockNumber: 0 };

  it("funds a fresh account with TRX (sun) and TRC-20 USDT through signed faucet transactions", async () => {
    payer = (await TronWeb.createAccount()) as any;
    recipient = (await TronWeb.createAccount()) as any;
    tw = new TronWeb({ fullHost: info.fullHost, privateKey: payer.privateKey });
    expect(info.token).toMatch(/^T/);
    expect(TronWeb.address.toHex(info.token).toLowerCase()).toBe(`41${info.tokenHex.slice(2).toLowerCase()}`);
    expect(await wallet("/wallet/getaccount", { address: payer.address.base58, visible: true })).toEqual({});

    const funded = await fundTronAddress(info, payer.address.base58, { usdtUnits: 100_000_000n, trxSun: 50_000_000n });
    expect(funded.txID).toMatch(/^[0-9a-f]{64}$/);
    expect(await wallet("/wallet/getaccount", { address: payer.address.base58, visible: true })).toMatchObject({
      address: payer.address.base58,
      balance: 50_000_000,
    });
    expect(await tw.trx.getUnconfirmedBalance(payer.address.base58)).toBe(50_000_000);
    expect(await balanceOf(payer.address.base58)).toBe(100_000_000n);
    const mint = await minedInfo(funded.txID);
    expect(mint.log[0].topics).toEqual([TRANSFER_TOPIC, "0".repeat(64), topicOf(payer.address.base58)]);
  });

  it(
    "builds a TRC-20 transfer with triggersmartcontract, " +
      "signs and broadcasts it; receipt, logs and balances follow",
    async () => {
      const { result, transaction } = await transfer(1_500_000);
      expect(result.result).toBe(true);
      expect(transaction.raw_data.contract[0]!.parameter.value).toMatchObject({
        owner_address: payer.address.hex.toLowerCase(),
        contract_address: TronWeb.address.toHex(info.token).toLowerCase(),
      });
      const sent = await tw.trx.sendRawTransaction(await tw.trx.sign(transaction));
      expect(sent).toMatchObject({ result: true, txid: transaction.txID });

      const txInfo = await minedInfo(transaction.txID);
      expect(txInfo).toMatchObject({
        id: transaction.txID,
        contract_address: TronWeb.address.toHex(info.token).toLowerCase(),
        receipt: { result: "SUCCESS" },
      });
      expect(txInfo.log).toEqual([
        {
          address: info.tokenHex.slice(2).toLowerCase(),
          topics: [TRANSFER_TOPIC, topicOf(payer.address.base58), topicOf(recipient.address.base58)],
          data: (1_500_000).toString(16).padStart(64, "0"),
        },
      ]);
      Object.assign(firstTransfer, { txID: transaction.txID, blockNumber: txInfo.blockNumber });

      const token = await tw.contract().at(info.token);
      expect(BigInt(await token.balanceOf(recipient.address.base58).call())).toBe(1_500_000n);
      expect(await balanceOf(payer.address.base58)).toBe(98_500_000n);
      // Energy is burnt as on mainnet: USDT to a balance that was zero takes 130,285 energy at 100 sun; the ~345
      // bytes come from the payer's free daily bandwidth.
      expect(txInfo).toMatchObject({
        fee: 13_028_500,
        receipt: { energy_fee: 13_028_500, energy_usage_total: 130_285 },
      });
      expect(txInfo.receipt.net_usage).toBeGreaterThan(300);
      expect(await tw.trx.getUnconfirmedBalance(payer.address.base58)).toBe(50_000_000 - 13_028_500);
      const tx = await wallet("/wallet/gettransactionbyid", { value: transaction.txID });
      expect(tx).toMatchObject({
        txID: transaction.txID,
        ret: [{ contractRet: "SUCCESS" }],
        raw_data_hex: transaction.raw_data_hex,
      });
    },
  );

  it("offline path (txLocal + blockHeader), then /jsonrpc and the 19-block solidity lag", async () => {
    const blockHeader = await headerFromNowBlock();
    const { transaction } = await transfer(250_000, { txLocal: true, blockHeader });
    expect(transaction.raw_data.ref_block_hash).toBe(blockHeader.ref_block_hash);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(transaction))).result).toBe(true);
    const txInfo = await minedInfo(transaction.txID);
    expect(txInfo.receipt.result).toBe("SUCCESS");
    expect(await balanceOf(recipient.address.base58)).toBe(1_750_000n);

    const blockID = (await wallet("/wallet/getblockbynum", { num: txInfo.blockNumber })).blockID;
    expect(blockID.slice(0, 16)).toBe(txInfo.blockNumber.toString(16).padStart(16, "0"));
    const logs = await rpc(info.jsonRpcUrl, "eth_getLogs", [
      {
        fromBlock: `0x${firstTransfer.blockNumber.toString(16)}`,
        toBlock: `0x${txInfo.blockNumber.toString(16)}`,
        address: info.tokenHex,
        topics: [`0x${TRANSFER_TOPIC}`, null, `0x${topicOf(recipient.address.base58)}`],
      },
    ]);
    expect(logs.result.map((l: any) => l.transactionHash)).toEqual([
      `0x${firstTransfer.txID}`,
      `0x${transaction.txID}`,
    ]);
    expect(logs.result[1].blockHash).toBe(`0x${blockID}`);
    const byHash = await rpc(info.jsonRpcUrl, "eth_getLogs", [{ blockHash: `0x${blockID}`, address: info.tokenHex }]);
    expect(byHash.result.map((l: any) => l.transactionHash)).toContain(`0x${transaction.txID}`);
    const receipt = (await rpc(info.jsonRpcUrl, "eth_getTransactionReceipt", [`0x${transaction.txID}`])).result;
    expect(receipt).toMatchObject({
      transactionHash: `0x${transaction.txID}`,
      blockHash: `0x${blockID}`,
      status: "0x1",
    });
    const block = (await rpc(info.jsonRpcUrl, "eth_getBlockByHash", [`0x${blockID}`, false])).result;
    expect(block.transactions).toContain(`0x${transaction.txID}`);
    expect(
      (await rpc(info.jsonRpcUrl, "eth_getLogs", [{ fromBlock: "latest", toBlock: "pending" }])).error.message,
    ).toMatch(/pending not supported/);
    expect((await rpc(info.jsonRpcUrl, "eth_sendRawTransaction", ["0x00"])).error.code).toBe(-32601);

    // Solidified = 19 blocks on top: block N shows on /walletsolidity once the head reaches N + 19.
    const solidInfo = () => wallet("/walletsolidity/gettransactioninfobyid", { value: transaction.txID });
    expect(await solidInfo()).toEqual({});
    const n = txInfo.blockNumber;
    const behind = n + 18 - (await anvilHead());
    if (behind > 0) await rpc(info.anvilRpcUrl, "anvil_mine", [`0x${behind.toString(16)}`]);
    const [h1, early, h2] = [await anvilHead(), await solidInfo(), await anvilHead()];
    if (h2 <= n + 18) expect(early).toEqual({}); // anvil's own 0.25 s blocks may have moved the head on
    if (h1 >= n + 19) expect(early).toMatchObject({ id: transaction.txID });
    await rpc(info.anvilRpcUrl, "anvil_mine", ["0x1"]);
    expect(await solidInfo()).toMatchObject({ id: transaction.txID, blockNumber: n, receipt: { result: "SUCCESS" } });
    expect((await wallet("/walletsolidity/gettransactionbyid", { value: transaction.txID })).txID).toBe(
      transaction.txID,
    );
    const headBefore = await anvilHead();
    const solidNumber = (await wallet("/walletsolidity/getnowblock")).block_header.raw_data.number;
    expect(solidNumber).toBeGreaterThanOrEqual(headBefore - 19);
    expect(solidNumber).toBeLessThanOrEqual((await anvilHead()) - 19);
    expect(await wallet("/walletsolidity/getblockbynum", { num: solidNumber + 2 })).toEqual({});
  });

  it("moves TRX in sun with TronWeb's sendTransaction (TransferContract)", async () => {
    // The recipient holds USDT but has never received TRX: it has no account yet, and this transfer creates it.
    expect(await wallet("/wallet/getaccount", { address: recipient.address.base58, visible: true })).toEqual({});
    const before = await tw.trx.getUnconfirmedBalance(payer.address.base58);
    const sent = await tw.trx.sendTransaction(recipient.address.base58, 2_000_000);
    expect(sent.result).toBe(true);
    const txInfo = await minedInfo(sent.transaction.txID);
    expect(txInfo).toMatchObject({ fee: 1_100_000, receipt: { net_fee: 100_000 } });
    expect(await tw.trx.getUnconfirmedBalance(recipient.address.base58)).toBe(2_000_000);
    expect(await tw.trx.getUnconfirmedBalance(payer.address.base58)).toBe(before - 2_000_000 - 1_100_000);
  });

  it("accepts a transfer beyond the balance and mines it as REVERT, as java-tron does", async () => {
    const { transaction } = await transfer(1_000_000_000);
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(transaction))).result).toBe(true);
    const txInfo = await minedInfo(transaction.txID);
    expect(txInfo).toMatchObject({ receipt: { result: "REVERT" }, result: "FAILED" });
    expect(txInfo.log).toBeUndefined();
    expect(await balanceOf(recipient.address.base58)).toBe(1_750_000n);
  });

  it("refuses what java-tron refuses, with its codes", async () => {
    const signed = await tw.trx.sign((await transfer(1)).transaction);
    const flipped =
      signed.signature[0]!.slice(0, 10) +
      (signed.signature[0]![10] === "a" ? "b" : "a") +
      signed.signature[0]!.slice(11);
    const tampered = await tw.trx.sendRawTransaction({ ...signed, signature: [flipped] });
    expect(tampered).toMatchObject({ result: false, code: "SIGERROR", txid: signed.txID });
    expect(hexText(tampered.message as string)).toMatch(/signature/i);
    const otherKey = tronUtils.crypto.signTransaction(recipient.privateKey, { ...(await transfer(2)).transaction });
    expect((await tw.trx.sendRawTransaction(otherKey as any)).code).toBe("SIGERROR");

    const header = await headerFromNowBlock();
    const expired = await transfer(1, {
      txLocal: true,
      blockHeader: { ...header, expiration: header.timestamp - 1_000 },
    });
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(expired.transaction))).code).toBe(
      "TRANSACTION_EXPIRATION_ERROR",
    );
    const unknownRef = await transfer(1, {
      txLocal: true,
      blockHeader: { ...header, ref_block_hash: "00000000000000ff" },
    });
    expect((await tw.trx.sendRawTransaction(await tw.trx.sign(unknownRef.transaction))).code).toBe("TAPOS_ERROR");

    const once = await tw.trx.sign((await transfer(3)).transaction);
    expect((await tw.trx.sendRawTransaction(once)).result).toBe(true);
    expect(await tw.trx.sendRawTransaction(once)).toMatchObject({
      result: false,
      code: "DUP_TRANSACTION_ERROR",
      txid: once.txID,
    });
    await minedInfo(once.txID);
    for (const refused of [signed.txID, expired.transaction.txID, unknownRef.transaction.txID])
      expect(await wallet("/wallet/gettransactioninfobyid", { value: refused })).toEqual({});
    expect(await balanceOf(recipient.address.base58)).toBe(1_750_003n);
  });

  it("comes back after a restart with the same token, balances and transaction lookups", async () => {
    const before = {
      token: info.token,
      fullHost: info.fullHost,
      usdt: await balanceOf(recipient.address.base58),
      trx: await tw.trx.getUnconfirmedBalance(recipient.address.base58),
    };
    const blockID = (await wallet("/wallet/getblockbynum", { num: firstTransfer.blockNumber })).blockID;
    await sandbox.stop();
    sandbox = await startTronSandbox({ dataDir, blockTime: 0.25 });
    info = sandbox.info;
    expect({ token: info.token, fullHost: info.fullHost }).toEqual({ token: before.token, fullHost: before.fullHost });
    expect(await balanceOf(recipient.address.base58)).toBe(before.usdt);
    expect(await tw.trx.getUnconfirmedBalance(recipient.address.base58)).toBe(before.trx);
    expect(await wallet("/wallet/gettransactioninfobyid", { value: firstTransfer.txID })).toMatchObject({
      id: firstTransfer.txID,
      blockNumber: firstTransfer.blockNumber,
      receipt: { result: "SUCCESS" },
    });
    expect((await wallet("/wallet/getblockbynum", { num: firstTransfer.blockNumber })).blockID).toBe(blockID);
    expect(
      (await rpc(info.jsonRpcUrl, "eth_getTransactionReceipt", [`0x${firstTransfer.txID}`])).result.blockHash,
    ).toBe(`0x${blockID}`);
  });
});
