import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  hexToBytes,
  http,
  type LocalAccount,
  parseAbi,
  parseEther,
  type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { freePort } from "@/lib/platform/db/embedded";
import { batchAuthorizations, batchCall, delegationCode } from "@/lib/chains/evm/evm-batch";
import { CREATE2_DEPLOYER } from "@/lib/chains/evm/create2";
import { sweeperContract } from "@/lib/chains/evm/deposit-sweeper";
import { type RunningAnvil, startAnvil } from "@/sandbox/evm/anvil";
import type { SigningKey } from "@/lib/chains/wallets/wallet-roles";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { walletOn } from "../helpers/chains";

// contracts/DepositSweeper.sol on an anvil of its own (Prague), with the mainnet-USDT-like token whose
// transfer returns nothing: what a delegation lets anyone do, and what it does not.
const CHAIN_ID = 900_777;
let anvil: RunningAnvil;
let client: PublicClient;
let token: Address;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const sweeper = privateKeyToAccount(generatePrivateKey());
const stranger = privateKeyToAccount(generatePrivateKey());
const contract = sweeperContract(treasury, sweeper.address);

const wallet = (account: LocalAccount) => walletOn(anvil.rpcUrl, CHAIN_ID, account);
const mined = async (hash: Hex) => (await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status;
const balance = (address: string) =>
  client.readContract({
    address: token,
    abi: TOKEN_ABI.no_return,
    functionName: "balanceOf",
    args: [address as Address],
  });
const mint = async (to: string, raw: bigint) =>
  mined(
    await wallet(anvilAccount()).writeContract({
      address: token,
      abi: TOKEN_ABI.no_return,
      functionName: "mint",
      args: [to as Address, raw],
    }),
  );

/** Deposit addresses holding `raw` each, and the batch that sweeps them. */
async function deposits(n: number, raw: bigint) {
  const keys = Array.from({ length: n }, () => {
    const pk = generatePrivateKey();
    return { address: privateKeyToAccount(pk).address as string, privateKey: hexToBytes(pk) };
  });
  for (const k of keys) await mint(k.address, raw);
  const batch = {
    contract: contract.address,
    members: keys.map((k, index) => ({ address: k.address, index, raw: raw.toString() })),
  };
  return { keys, batch };
}

/** The sweeper's transaction for a batch: type 4 with the authorizations still needed. */
async function sweepAs(from: typeof sweeper, batch: Awaited<ReturnType<typeof deposits>>["batch"], keys: SigningKey[]) {
  const authorizationList = await batchAuthorizations(client, CHAIN_ID, batch, keys);
  const hash = await wallet(from).sendTransaction({
    ...batchCall(batch, token),
    gas: 2_000_000n,
    ...(authorizationList.length ? { authorizationList } : {}),
  } as never);
  return { status: await mined(hash), authorizations: authorizationList.length };
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID, port: await freePort() });
  client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
  token = await deploySandboxToken(anvil.rpcUrl, "no_return", 6);
  const funder = wallet(anvilAccount());
  for (const a of [sweeper.address, stranger.address])
    await mined(await funder.sendTransaction({ to: a, value: parseEther("1") }));
  expect(await mined(await wallet(sweeper).sendTransaction({ to: CREATE2_DEPLOYER, data: contract.deployData }))).toBe(
    "success",
  );
}, 60_000);

afterAll(async () => {
  await anvil?.stop();
});

describe("DepositSweeper (EIP-7702 delegate of deposit addresses)", () => {
  it(
    "sweeps exactly the amounts of a USDT-like token that returns nothing; " +
      "delegated addresses need no authorization again",
    async () => {
      const { keys, batch } = await deposits(3, 5_000_000n);
      expect(await sweepAs(sweeper, batch, keys)).toEqual({ status: "success", authorizations: 3 });
      expect(await balance(treasury)).toBe(15_000_000n);
      for (const k of keys) {
        expect(await balance(k.address)).toBe(0n);
        expect(await client.getCode({ address: k.address as Address })).toBe(delegationCode(contract.address));
      }
      // A transfer that arrives later stays until it is swept, by exactly its amount.
      for (const k of keys) await mint(k.address, 7n);
      const again = { ...batch, members: batch.members.map((m) => ({ ...m, raw: "4" })) };
      expect(await sweepAs(sweeper, again, keys)).toEqual({ status: "success", authorizations: 0 });
      for (const k of keys) expect(await balance(k.address)).toBe(3n);
    },
  );

  it("lets nobody but the sweeper start a sweep, and nothing goes anywhere but the treasury", async () => {
    const { keys, batch } = await deposits(1, 1_000_000n);
    expect((await sweepAs(stranger, batch, keys)).status).toBe("reverted");
    expect(await sweepAs(sweeper, { ...batch, members: [{ ...batch.members[0]!, raw: "1" }] }, keys)).toMatchObject({
      status: "success",
    });
    // Calling a delegated address's own `sweep` directly is refused too.
    const direct = await wallet(stranger).sendTransaction({
      to: keys[0]!.address as Address,
      data: encodeFunctionData({
        abi: parseAbi(["function sweep(address token, uint256 amount)"]),
        functionName: "sweep",
        args: [token, 1n],
      }),
      gas: 200_000n,
    });
    expect(await mined(direct)).toBe("reverted");
    expect(await balance(keys[0]!.address)).toBe(999_999n);
  });

  it(
    "reverts a whole batch when one member is not delegated (nothing moves), " +
      "and a delegated address still takes native coin",
    async () => {
      const { keys, batch } = await deposits(2, 2_000_000n);
      const before = await balance(treasury);
      // Only the first member authorizes: the second has no code, so the call to it fails, and with it the batch.
      const authorizationList = await batchAuthorizations(
        client,
        CHAIN_ID,
        { ...batch, members: [batch.members[0]!] },
        [keys[0]!],
      );
      const hash = await wallet(sweeper).sendTransaction({
        ...batchCall(batch, token),
        gas: 2_000_000n,
        authorizationList,
      } as never);
      expect(await mined(hash)).toBe("reverted");
      expect(await balance(treasury)).toBe(before);
      for (const k of keys) expect(await balance(k.address)).toBe(2_000_000n);
      const paid = await wallet(stranger).sendTransaction({ to: keys[0]!.address as Address, value: 1n });
      expect(await mined(paid)).toBe("success");
      expect(await client.getBalance({ address: keys[0]!.address as Address })).toBe(1n);
    },
  );
});
