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
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "@/lib/platform/db/embedded";
import type { ChainConfig } from "@/lib/chains/chain-config";
import { delegationCode } from "@/lib/chains/evm/evm-batch";
import { evmCall } from "@/lib/chains/evm/evm-call";
import { EvmDriver } from "@/lib/chains/evm/evm-driver";
import type { IntentKeys } from "@/lib/chains/outbound-driver";
import type { CandidateRow, OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { CREATE2_DEPLOYER } from "@/lib/chains/evm/create2";
import { payManyCall, payoutBatcherContract } from "@/lib/chains/evm/payout-batcher";
import { type RunningAnvil, startAnvil } from "@/sandbox/evm/anvil";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { walletOn } from "../helpers/chains";

// contracts/PayoutBatcher.sol on an anvil of its own (Prague), with the mainnet-USDT-like token whose transfer
// returns nothing: the treasury delegates to it and pays many recipients in one transaction of its own.
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

/** The treasury's batch: to itself, type 4 with its own authorization while it is not yet delegated. */
async function payMany(from: LocalAccount, payouts: { to: string; raw: bigint }[]) {
  const code = await client.getCode({ address: treasury.address });
  const delegated = code?.toLowerCase() === delegationCode(contract.address);
  const authorizationList =
    delegated || from !== treasury
      ? []
      : [
          await treasury.signAuthorization({
            chainId: CHAIN_ID,
            address: contract.address,
            // Sender and authority are one account: the authorization takes the nonce after the transaction's.
            nonce: (await client.getTransactionCount({ address: treasury.address })) + 1,
          }),
        ];
  const hash = await wallet(from).sendTransaction({
    ...payManyCall(treasury.address, token, payouts),
    gas: 3_000_000n,
    ...(authorizationList.length ? { authorizationList } : {}),
  } as never);
  const r = await receipt(hash);
  return { status: r.status, gasUsed: r.gasUsed, authorizations: authorizationList.length };
}

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

describe("PayoutBatcher (EIP-7702 delegate of the treasury)", () => {
  it("pays 20 recipients exactly in one transaction, at under 60 % of a single transfer's gas per payout", async () => {
    // A single payout as the treasury sends one today: a plain transfer to a fresh recipient.
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

    const first = fresh(20).map((to, i) => ({ to, raw: 1_000_000n + BigInt(i) }));
    const delegating = await payMany(treasury, first);
    expect(delegating).toMatchObject({ status: "success", authorizations: 1 });
    for (const p of first) expect(await balance(p.to)).toBe(p.raw);
    expect(await client.getCode({ address: treasury.address })).toBe(delegationCode(contract.address));

    const next = fresh(20).map((to) => ({ to, raw: 2_000_000n }));
    const delegated = await payMany(treasury, next);
    expect(delegated).toMatchObject({ status: "success", authorizations: 0 });
    for (const p of next) expect(await balance(p.to)).toBe(2_000_000n);

    const perPayout = (gas: bigint) => Number(gas) / 20 / Number(single.gasUsed);
    console.log(
      `gas: single transfer ${single.gasUsed}; batch of 20 with the delegation ${delegating.gasUsed} ` +
        `(${(perPayout(delegating.gasUsed) * 100).toFixed(1)} % per payout), delegated ${delegated.gasUsed} ` +
        `(${(perPayout(delegated.gasUsed) * 100).toFixed(1)} %)`,
    );
    expect(perPayout(delegating.gasUsed)).toBeLessThanOrEqual(0.6);
    expect(perPayout(delegated.gasUsed)).toBeLessThanOrEqual(0.6);
    // The delegated treasury still takes native coin as a plain address does (gas funding).
    const funded = await wallet(stranger).sendTransaction({ to: treasury.address, value: 1n, gas: 100_000n });
    expect((await receipt(funded)).status).toBe("success");
  });

  it("is all or nothing: one transfer that fails reverts the batch, and nobody is paid", async () => {
    const held = await balance(treasury.address);
    const payouts = fresh(3).map((to) => ({ to, raw: 1_000n }));
    payouts[2]!.raw = held + 1n; // more than the treasury holds
    expect((await payMany(treasury, payouts)).status).toBe("reverted");
    for (const p of payouts) expect(await balance(p.to)).toBe(0n);
    expect(await balance(treasury.address)).toBe(held);
  });

  it("lets nobody but the treasury itself call it, on the treasury or on the contract", async () => {
    const held = await balance(treasury.address);
    const [thief] = fresh(1);
    const onTreasury = await wallet(stranger).sendTransaction({
      ...payManyCall(treasury.address, token, [{ to: thief!, raw: 1n }]),
      gas: 300_000n,
    });
    expect((await receipt(onTreasury)).status).toBe("reverted");
    const onContract = await wallet(stranger).sendTransaction({
      ...payManyCall(contract.address, token, [{ to: thief!, raw: 1n }]),
      gas: 300_000n,
    });
    expect((await receipt(onContract)).status).toBe("reverted");
    expect(await balance(thief!)).toBe(0n);
    expect(await balance(treasury.address)).toBe(held);
  });

  it("a replacement of a batch signed with the treasury's own authorization keeps it after the treasury got delegated: both of its nonces are used, no gap", async () => {
    expect(await client.getCode({ address: treasury.address })).toBe(delegationCode(contract.address));
    const to = fresh(2);
    const intent = {
      fromAddress: treasury.address,
      toAddress: treasury.address,
      options: {
        payoutBatch: {
          contract: contract.address,
          members: to.map((address, i) => ({ payoutId: `po_${i}`, address, raw: "7" })),
        },
      },
    } as unknown as OutboundRow;
    const driver = new EvmDriver(anvilConfig());
    // Delegated now: a first candidate would be a plain call of one nonce.
    expect(driver.noncesUsed((await driver.prepare(intent, null))!)).toBe(1);
    // Its predecessor was signed before an earlier batch delegated the treasury: the nonce after its own too.
    const nonce = await client.getTransactionCount({ address: treasury.address });
    const fees = { maxFeePerGas: parseGwei("2"), maxPriorityFeePerGas: parseGwei("1") };
    const previous = {
      ...fees,
      signedTx: await treasury.signTransaction({
        type: "eip7702",
        chainId: CHAIN_ID,
        nonce,
        gas: 400_000n,
        ...fees,
        ...evmCall(anvilConfig(), intent),
        authorizationList: [
          await treasury.signAuthorization({ chainId: CHAIN_ID, address: contract.address, nonce: nonce + 1 }),
        ],
      }),
    } as CandidateRow;
    const replacement = (await driver.prepare(intent, previous))!;
    expect(replacement).toMatchObject({ gas: 400_000n });
    expect(driver.noncesUsed(replacement)).toBe(2);
    const keys = { signer: { privateKey: hexToBytes(treasuryKey) }, feePayer: null } as unknown as IntentKeys;
    const signed = await driver.sign(intent, keys, replacement, BigInt(nonce));
    await client.request({ method: "eth_sendRawTransaction", params: [signed.signedTx as Hex] });
    expect((await receipt(signed.txHash as Hex)).status).toBe("success");
    for (const address of to) expect(await balance(address)).toBe(7n);
    expect(await client.getTransactionCount({ address: treasury.address })).toBe(nonce + 2);
  });
  it("a batch that would carry the treasury's own authorization waits while the treasury has a transaction in flight (as geth and reth require), then goes", async () => {
    const key = generatePrivateKey();
    const fresh = privateKeyToAccount(key);
    await receipt(await wallet(anvilAccount()).sendTransaction({ to: fresh.address, value: parseEther("1") }));
    const intent = {
      fromAddress: fresh.address,
      toAddress: fresh.address,
      options: {
        payoutBatch: {
          contract: contract.address,
          members: [0, 1].map((i) => ({ payoutId: `po_${i}`, address: fresh.address, raw: "0" })),
        },
      },
    } as unknown as OutboundRow;
    const driver = new EvmDriver(anvilConfig());
    await client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    try {
      // Something of the treasury's is in the node's pool, not yet mined: the batch is not signed.
      await wallet(fresh).sendTransaction({ to: fresh.address, value: 0n });
      expect(await driver.prepare(intent, null)).toBeNull();
      await client.request({ method: "evm_mine" as never, params: [] as never });
      // Mined: it is signed now, with the treasury's authorization (its transaction's nonce and the next).
      const prepared = (await driver.prepare(intent, null))!;
      expect(prepared).not.toBeNull();
      expect(driver.noncesUsed(prepared)).toBe(2);
    } finally {
      await client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    }
  });
});
