import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Address,
  createPublicClient,
  type Hex,
  hexToBytes,
  http,
  type LocalAccount,
  parseEther,
  parseGwei,
  parseTransaction,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "@/lib/platform/db/embedded";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { delegationCode } from "@/lib/chains/evm/evm-batch";
import { EvmDriver } from "@/lib/chains/evm/evm-driver";
import type { IntentKeys } from "@/lib/chains/outbound-driver";
import type { CandidateRow, OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { CREATE2_DEPLOYER } from "@/lib/chains/evm/create2";
import {
  ALLOWANCE_ABI,
  approveBatcherData,
  DELEGATED_PAYOUT_BATCHER,
  payManyCall,
  payoutBatcherContract,
} from "@/lib/chains/evm/payout-batcher";
import { type RunningAnvil, startAnvil } from "@/sandbox/evm/anvil";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { walletOn } from "../helpers/chains";

// contracts/PayoutBatcher.sol on an anvil of its own (Prague), with the mainnet-USDT-like token whose transfer
// returns nothing: the treasury approves it once and pays many recipients in one transaction through it; and the
// EVM driver's side of it: a batch waits for the approval, several are in flight at once, a treasury delegated by
// the first design clears its delegation.
const CHAIN_ID = 900_778;
let anvil: RunningAnvil;
let client: PublicClient;
let token: Address;
const treasuryKey = generatePrivateKey();
const treasury = privateKeyToAccount(treasuryKey);
const stranger = privateKeyToAccount(generatePrivateKey());
const contract = payoutBatcherContract();

const wallet = (account: LocalAccount) => walletOn(anvil.rpcUrl, CHAIN_ID, account);
const receipt = (hash: Hex) => client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
const balance = async (address: string) =>
  (await client.readContract({
    address: token,
    abi: TOKEN_ABI.no_return,
    functionName: "balanceOf",
    args: [address as Address],
  })) as bigint;
const fresh = (n: number) => Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()).address);

/** This anvil as the sandbox eth chain, for the outbound driver. */
const anvilConfig = () =>
  ({
    mode: "sandbox",
    chain: "eth",
    family: "evm",
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    tokenAddress: token,
    decimals: 6,
    maxFeeWei: parseGwei("1000"),
  }) as ChainConfig;

/** The treasury's batch: a call of the PayoutBatcher, which spends the treasury's allowance. */
async function payMany(from: LocalAccount, payouts: { to: string; raw: bigint }[]) {
  const hash = await wallet(from).sendTransaction({
    ...payManyCall(contract.address, token, payouts),
    gas: 3_000_000n,
  });
  const r = await receipt(hash);
  return { status: r.status, gasUsed: r.gasUsed };
}

const allowance = (owner: string) =>
  client.readContract({
    address: token,
    abi: ALLOWANCE_ABI,
    functionName: "allowance",
    args: [owner as Address, contract.address],
  });
const approve = async (owner: LocalAccount) =>
  (await receipt(await wallet(owner).sendTransaction({ to: token, data: approveBatcherData(contract.address) })))
    .status;
const keysOf = (key: Hex) => ({ signer: { privateKey: hexToBytes(key) }, feePayer: null }) as unknown as IntentKeys;
const automine = (on: boolean) => client.request({ method: "evm_setAutomine" as never, params: [on] as never });
const mine = () => client.request({ method: "evm_mine" as never, params: [] as never });

/** A funded account of its own, for a driver test (its nonces and pool entries are its own). */
async function freshTreasury(usdt = 0n) {
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);
  const funder = wallet(anvilAccount());
  await receipt(await funder.sendTransaction({ to: account.address, value: parseEther("1") }));
  if (usdt)
    await receipt(
      await funder.writeContract({
        address: token,
        abi: TOKEN_ABI.no_return,
        functionName: "mint",
        args: [account.address, usdt],
      }),
    );
  return { key, account };
}

const batchIntent = (from: string, batcher: string, members: { address: string; raw: bigint }[]) =>
  ({
    purpose: "payout_batch",
    fromAddress: from,
    toAddress: batcher,
    rawAmount: members.reduce((sum, m) => sum + m.raw, 0n),
    options: {
      payoutBatch: {
        contract: batcher,
        members: members.map((m, i) => ({ payoutId: `po_${i}`, address: m.address, raw: m.raw.toString() })),
      },
    },
  }) as unknown as OutboundRow;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, port: await freePort() });
  client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
  token = await deploySandboxToken(anvil.rpcUrl, "no_return", 6);
  const funder = wallet(anvilAccount());
  for (const a of [treasury.address, stranger.address])
    await receipt(await funder.sendTransaction({ to: a, value: parseEther("1") }));
  await receipt(
    await funder.writeContract({
      address: token,
      abi: TOKEN_ABI.no_return,
      functionName: "mint",
      args: [treasury.address, 1_000_000_000n],
    }),
  );
  expect(
    (await receipt(await funder.sendTransaction({ to: CREATE2_DEPLOYER, data: contract.deployData }))).status,
  ).toBe("success");
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
});

describe("PayoutBatcher (the treasury's allowance)", () => {
  it("pays 20 recipients exactly in one transaction, at under 60 % of a single transfer's gas per payout", async () => {
    // A single payout as the treasury sends one alone: a plain transfer to a fresh recipient.
    const [alone] = fresh(1);
    const single = await receipt(
      await wallet(treasury).writeContract({
        address: token,
        abi: TOKEN_ABI.no_return,
        functionName: "transfer",
        args: [alone as Address, 1_000_000n],
      }),
    );
    expect(single.status).toBe("success");
    // Without the approval nothing can be paid through it.
    expect((await payMany(treasury, [{ to: fresh(1)[0]!, raw: 1n }])).status).toBe("reverted");
    expect(await approve(treasury)).toBe("success");

    const first = fresh(20).map((to, i) => ({ to, raw: 1_000_000n + BigInt(i) }));
    const batch = await payMany(treasury, first);
    expect(batch.status).toBe("success");
    for (const p of first) expect(await balance(p.to)).toBe(p.raw);
    const perPayout = Number(batch.gasUsed) / 20 / Number(single.gasUsed);
    console.log(
      `gas: single transfer ${single.gasUsed}; ` +
        `batch of 20 ${batch.gasUsed} (${(perPayout * 100).toFixed(1)} % per payout)`,
    );
    expect(perPayout).toBeLessThanOrEqual(0.6);
    // The treasury stays a plain account.
    expect(await client.getCode({ address: treasury.address })).toBeUndefined();
  });

  it("is all or nothing: one transfer that fails reverts the batch, and nobody is paid", async () => {
    const held = await balance(treasury.address);
    const payouts = fresh(3).map((to) => ({ to, raw: 1_000n }));
    payouts[2]!.raw = held + 1n; // more than the treasury holds
    expect((await payMany(treasury, payouts)).status).toBe("reverted");
    for (const p of payouts) expect(await balance(p.to)).toBe(0n);
    expect(await balance(treasury.address)).toBe(held);
  });

  it("spends only its caller's allowance: a stranger's call cannot move the treasury's USDT", async () => {
    expect(await allowance(treasury.address)).toBeGreaterThan(10n ** 70n);
    const held = await balance(treasury.address);
    const [thief] = fresh(1);
    expect((await payMany(stranger, [{ to: thief!, raw: 1n }])).status).toBe("reverted");
    expect(await balance(thief!)).toBe(0n);
    expect(await balance(treasury.address)).toBe(held);
  });
});

describe("the EVM driver's payout batches", () => {
  it(
    "a batch waits for the treasury's approval to be mined, and never goes through an address without code; then " +
      "batches go as plain calls, several in flight at once",
    async () => {
      const { key, account } = await freshTreasury(1_000n);
      const driver = new EvmDriver(anvilConfig());
      const to = fresh(4);
      const batches = [to.slice(0, 2), to.slice(2)].map((pair) =>
        batchIntent(
          account.address,
          contract.address,
          pair.map((address) => ({ address, raw: 100n })),
        ),
      );
      expect(await driver.prepare(batches[0]!, null)).toBeNull(); // no allowance yet
      // An address without code, approved: never signed (a call to it would succeed and pay no one).
      const [codeless] = fresh(1);
      expect(
        (await receipt(await wallet(account).sendTransaction({ to: token, data: approveBatcherData(codeless!) })))
          .status,
      ).toBe("success");
      const throughCodeless = batchIntent(account.address, codeless!, [
        { address: to[0]!, raw: 1n },
        { address: to[1]!, raw: 1n },
      ]);
      expect(await driver.prepare(throughCodeless, null)).toBeNull();
      await automine(false);
      try {
        const approval = await wallet(account).sendTransaction({
          to: token,
          data: approveBatcherData(contract.address),
        });
        expect(await driver.prepare(batches[0]!, null)).toBeNull(); // approved in the pool, not mined
        await mine();
        expect((await receipt(approval)).status).toBe("success");
        // Two batches signed with consecutive nonces, both in the node's pool before either is mined.
        let nonce = await client.getTransactionCount({ address: account.address });
        const sent: Hex[] = [];
        for (const intent of batches) {
          const prepared = (await driver.prepare(intent, null))!;
          expect(prepared).not.toBeNull();
          expect(driver.noncesUsed(prepared)).toBe(1);
          const signed = await driver.sign(intent, keysOf(key), prepared, BigInt(nonce++));
          expect(parseTransaction(signed.signedTx as Hex)).toMatchObject({
            type: "eip1559",
            to: contract.address.toLowerCase(),
          });
          expect(await driver.broadcast({ signedTx: signed.signedTx } as CandidateRow)).toEqual({ sent: true });
          sent.push(signed.txHash as Hex);
        }
        expect(await client.getTransactionCount({ address: account.address, blockTag: "pending" })).toBe(nonce);
        await mine();
        for (const hash of sent) expect((await receipt(hash)).status).toBe("success");
        for (const address of to) expect(await balance(address)).toBe(100n);
      } finally {
        await automine(true);
      }
    },
  );

  it(
    "a treasury delegated by the first design clears its delegation (authorization to address 0) once nothing of " +
      "its is in flight",
    async () => {
      const { key, account } = await freshTreasury();
      // Delegated as the first design left it: its own authorization, in a transaction of its own.
      const nonce = await client.getTransactionCount({ address: account.address });
      const delegation = await wallet(account).sendTransaction({
        to: account.address,
        authorizationList: [
          await account.signAuthorization({ chainId: CHAIN_ID, address: DELEGATED_PAYOUT_BATCHER, nonce: nonce + 1 }),
        ],
      } as never);
      await receipt(delegation);
      expect(await client.getCode({ address: account.address })).toBe(delegationCode(DELEGATED_PAYOUT_BATCHER));
      const intent = {
        purpose: "undelegate",
        fromAddress: account.address,
        toAddress: account.address,
        asset: "native",
        rawAmount: 0n,
        options: {},
      } as unknown as OutboundRow;
      const driver = new EvmDriver(anvilConfig());
      await automine(false);
      try {
        await wallet(account).sendTransaction({ to: account.address, value: 0n });
        expect(await driver.prepare(intent, null)).toBeNull(); // something of its in flight
        await mine();
        const prepared = (await driver.prepare(intent, null))!;
        expect(driver.noncesUsed(prepared)).toBe(2);
        const next = await client.getTransactionCount({ address: account.address });
        const signed = await driver.sign(intent, keysOf(key), prepared, BigInt(next));
        expect(await driver.broadcast({ signedTx: signed.signedTx } as CandidateRow)).toEqual({ sent: true });
        await mine();
        expect((await receipt(signed.txHash as Hex)).status).toBe("success");
      } finally {
        await automine(true);
      }
      expect(await client.getCode({ address: account.address })).toBeUndefined();
      const after = await client.getTransactionCount({ address: account.address });
      expect(after).toBe(nonce + 5); // its delegation (two), a plain call, the undelegation (two)
      // Nothing to clear any more: the same intent would be a plain call.
      expect(driver.noncesUsed((await driver.prepare(intent, null))!)).toBe(1);
    },
  );

  it(
    "a batch of the first design still goes as it was made: on the treasury itself, and a replacement keeps the " +
      "treasury's authorization",
    async () => {
      const { key, account } = await freshTreasury();
      const intent = batchIntent(account.address, DELEGATED_PAYOUT_BATCHER, [
        { address: fresh(1)[0]!, raw: 7n },
        { address: fresh(1)[0]!, raw: 7n },
      ]);
      const driver = new EvmDriver(anvilConfig());
      const prepared = (await driver.prepare(intent, null))!;
      expect(driver.noncesUsed(prepared)).toBe(2); // not yet delegated: its own authorization rides along
      const nonce = BigInt(await client.getTransactionCount({ address: account.address }));
      const signed = await driver.sign(intent, keysOf(key), prepared, nonce);
      const tx = parseTransaction(signed.signedTx as Hex);
      expect(tx).toMatchObject({ type: "eip7702", to: account.address.toLowerCase() });
      expect(tx.authorizationList?.map((a) => [a.address.toLowerCase(), a.nonce])).toEqual([
        [DELEGATED_PAYOUT_BATCHER.toLowerCase(), Number(nonce) + 1],
      ]);
      const replacement = (await driver.prepare(intent, { ...signed, signedTx: signed.signedTx } as CandidateRow))!;
      expect(replacement.gas).toBe(tx.gas);
      expect(driver.noncesUsed(replacement)).toBe(2);
    },
  );
});
