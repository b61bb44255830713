import { randomBytes } from "node:crypto";
import {
  address,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { TronWeb } from "tronweb";
import { erc20Abi, formatGwei, parseGwei, type Address, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { api, expectError, newMerchant, type TestMerchant } from "../helpers/api";
import { fundedWallet, sandboxChain } from "../helpers/chains";
import { tronPayer } from "../helpers/emulated-wallets";
import { signedTransaction, waitForSignatureStatus } from "../helpers/solana-rpc";

// The sandbox chain controls an outbound-transaction engine is tested with: freeze (the token refuses transfers to an
// address, like USDT's blacklist), congest (the next block's base fee; on solana, the price the others' traffic pays)
// and drop (a pending transaction leaves anvil's pool). All on the run's shared chains: every case uses fresh
// addresses, and the congestion is undone before its test ends.

let m: TestMerchant;
beforeAll(async () => {
  m = await newMerchant("Chain controls");
});

const control = (chain: string, action: string, body: unknown, key = m.sandboxKey) =>
  api("POST", `/v1/sandbox/chains/${chain}/${action}`, { key, body });

async function setFrozen(chain: string, addr: string, frozen: boolean) {
  const reply = await control(chain, frozen ? "freeze" : "unfreeze", { address: addr });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

const evmAddress = () => privateKeyToAccount(generatePrivateKey()).address;
const tronAddress = () => TronWeb.address.fromPrivateKey(randomBytes(32).toString("hex")) as string;

async function waitForBlock(client: PublicClient, number: bigint) {
  for (;;) {
    const block = await client.getBlock({ blockTag: "latest" });
    if (block.number >= number) return client.getBlock({ blockNumber: number });
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("the controls", () => {
  it("do not exist for live keys, and check their input", async () => {
    const dead = "0x000000000000000000000000000000000000dEaD";
    const hash = `0x${"ab".repeat(32)}`;
    for (const [action, body] of [
      ["freeze", { address: dead }],
      ["unfreeze", { address: dead }],
      ["congest", { base_fee_gwei: "50" }],
      ["drop", { tx_hash: hash }],
    ] as const) {
      expectError(await control("eth", action, body, m.liveKey), "not_found", 404);
    }
    expectError(await control("eth", "freeze", { address: "0x123" }), "invalid_request_error", 400, "address");
    expectError(await control("tron", "freeze", { address: dead }), "invalid_request_error", 400, "address");
    expectError(
      await control("solana", "unfreeze", { address: "not-base58!" }),
      "invalid_request_error",
      400,
      "address",
    );
    expectError(await control("eth", "freeze", {}), "invalid_request_error", 400, "address");
    expectError(await control("dogecoin", "freeze", { address: dead }), "not_found", 404, "chain");
    for (const value of ["1.0000000001", 50, "-1", "20000", ""]) {
      expectError(
        await control("eth", "congest", { base_fee_gwei: value }),
        "invalid_request_error",
        400,
        "base_fee_gwei",
      );
    }
    expectError(await control("eth", "drop", { tx_hash: "0x1234" }), "invalid_request_error", 400, "tx_hash");
    expectError(await control("tron", "congest", { base_fee_gwei: "50" }), "invalid_request_error", 400, "chain");
    expectError(await control("tron", "drop", { tx_hash: hash }), "invalid_request_error", 400, "chain");
    // Solana congests with a compute-unit price, EVM chains with a base fee: each refuses the other's field.
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ["solana", { base_fee_gwei: "50" }, "base_fee_gwei"],
      ["solana", {}, "compute_unit_price"],
      ["eth", { compute_unit_price: "1000" }, "compute_unit_price"],
      ["eth", {}, "base_fee_gwei"],
      ...["1.5", 1000, "-1", "100000001", "", "1e3"].map((value): [string, Record<string, unknown>, string] => [
        "solana",
        { compute_unit_price: value },
        "compute_unit_price",
      ]),
    ];
    for (const [chain, body, param] of refusals)
      expectError(await control(chain, "congest", body), "invalid_request_error", 400, param);
    // "0" ends a congestion (none here: the suite's other files keep their fee market as it was).
    const calm = await control("solana", "congest", { compute_unit_price: "0" });
    expect(calm.status, calm.text).toBe(200);
    expect(calm.json).toEqual({
      object: "sandbox_chain_congested",
      chain: "solana",
      base_fee_per_gas: null,
      compute_unit_price: "0",
      head: expect.any(Number),
    });
  });
});

describe("the sandbox anvils", () => {
  it("run the Prague rules (EIP-7702), pinned rather than anvil's moving default", async () => {
    const tron = await sandboxChain("tron");
    const urls = [
      ...(await Promise.all((["eth", "bnb", "polygon"] as const).map(async (c) => (await sandboxChain(c)).rpcUrl))),
      tron.extra.anvilRpcUrl!,
    ];
    for (const url of urls) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_nodeInfo", params: [] }),
      });
      expect(((await res.json()) as { result: { hardFork: string } }).result.hardFork).toBe("Prague");
    }
  });
});

// The four chains' cases touch different chains, so they run side by side.
describe.concurrent("freeze: a transfer to a frozen address fails on chain, others go through", () => {
  it.each([
    // eth's case (the no-return token kind) is in tests/custody/reconcile.test.ts: suite files reorganize eth,
    // which can take a transfer of this test out of the chain for good.
    ["bnb", 18],
  ] as const)(
    "on %s (%i decimals)",
    async (chain, decimals) => {
      const payer = await fundedWallet(m.sandboxKey, chain, "10.000000");
      const [frozen, other] = [evmAddress(), evmAddress()];
      const unit = 10n ** BigInt(decimals);
      const balance = (of: Address) =>
        payer.client.readContract({
          address: payer.config.tokenAddress as Address,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [of],
        });
      const transfer = async (to: Address) =>
        (await payer.client.waitForTransactionReceipt({ hash: await payer.send(to, unit, { gas: 100_000n }) })).status;

      const reply = await setFrozen(chain, frozen, true);
      expect(reply).toEqual({
        object: "sandbox_freeze",
        chain,
        address: frozen,
        frozen: true,
        tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect((await setFrozen(chain, frozen, true)).tx_hash).toBeNull(); // already frozen: nothing to send
      expect(await transfer(frozen)).toBe("reverted");
      expect(await transfer(other)).toBe("success");
      expect([await balance(frozen), await balance(other)]).toEqual([0n, unit]);

      expect(await setFrozen(chain, frozen, false)).toMatchObject({ frozen: false, tx_hash: expect.any(String) });
      expect(await transfer(frozen)).toBe("success");
      expect(await balance(frozen)).toBe(unit);
    },
    90_000,
  ); // seven transactions, each awaited, on a machine the rest of the suite keeps busy

  it("on tron (through the facade, as the token's owner)", async () => {
    const { rpcUrl } = await sandboxChain("tron");
    const payer = await tronPayer(m.sandboxKey, "10.000000");
    const [frozen, other] = [tronAddress(), tronAddress()];
    const result = async (txID: string) => {
      for (;;) {
        const res = await fetch(`${rpcUrl}/wallet/gettransactioninfobyid`, {
          method: "POST",
          body: JSON.stringify({ value: txID }),
        });
        const info = (await res.json()) as { blockNumber?: number; receipt?: { result?: string } };
        if (info.blockNumber !== undefined) return info.receipt?.result;
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const reply = await setFrozen("tron", frozen, true);
    expect(reply).toMatchObject({ object: "sandbox_freeze", chain: "tron", address: frozen, frozen: true });
    expect(reply.tx_hash).toMatch(/^[0-9a-f]{64}$/); // a Tron txID
    expect(await result(await payer.send(frozen, 1_000_000n))).toBe("REVERT");
    expect(await result(await payer.send(other, 1_000_000n))).toBe("SUCCESS");
    await setFrozen("tron", frozen, false);
    expect(await result(await payer.send(frozen, 1_000_000n))).toBe("SUCCESS");
  }, 90_000);

  it("on solana (the owner's token account frozen by the mint's freeze authority)", async () => {
    const config = await sandboxChain("solana");
    const rpc = createSolanaRpc(config.rpcUrl);
    const mint = address(config.tokenAddress);
    const payer = await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(randomBytes(32)));
    const faucet = await api("POST", "/v1/sandbox/faucet", {
      key: m.sandboxKey,
      body: { chain: "solana", address: payer.address, amount: "10.000000" },
    });
    expect(faucet.status, faucet.text).toBe(200);
    const newOwner = async () =>
      (await createKeyPairSignerFromPrivateKeyBytes(new Uint8Array(randomBytes(32)))).address;
    const [frozen, other] = [await newOwner(), await newOwner()];
    const ata = async (owner: string) =>
      (await findAssociatedTokenPda({ owner: address(owner), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];
    const state = async (owner: string) => {
      const { value } = await rpc
        .getAccountInfo(await ata(owner), { encoding: "jsonParsed", commitment: "confirmed" })
        .send();
      return (value!.data as { parsed: { info: { state: string } } }).parsed.info.state;
    };
    // Sent without preflight, so a refused transfer lands on chain with its error, as from a wallet that skips it.
    // Each transfer moves a different amount: the same transfer signed on the same blockhash (one slot) would be
    // the same transaction, and the cluster would answer for the first one.
    let sent = 0n;
    const transfer = async (to: string) => {
      sent += 1n;
      const signed = await signedTransaction(rpc, payer, [
        getCreateAssociatedTokenIdempotentInstruction({ payer, ata: await ata(to), owner: address(to), mint }),
        getTransferCheckedInstruction({
          source: await ata(payer.address),
          mint,
          destination: await ata(to),
          authority: payer,
          amount: 1_000_000n + sent,
          decimals: 6,
        }),
      ]);
      await rpc
        .sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64", skipPreflight: true })
        .send();
      return (await waitForSignatureStatus(rpc, getSignatureFromTransaction(signed), "confirmed")).err;
    };

    const reply = await setFrozen("solana", frozen, true); // its token account does not exist yet
    expect(reply).toMatchObject({ object: "sandbox_freeze", chain: "solana", address: frozen, frozen: true });
    expect(reply.tx_hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await state(frozen)).toBe("frozen");
    expect(await transfer(frozen)).toEqual({ InstructionError: [1n, { Custom: 17n }] }); // TokenError::AccountFrozen
    expect(await transfer(other)).toBeNull();
    expect((await setFrozen("solana", frozen, false)).tx_hash).toEqual(expect.any(String));
    expect(await state(frozen)).toBe("initialized");
    expect(await transfer(frozen)).toBeNull();
    expect((await setFrozen("solana", frozen, false)).tx_hash).toBeNull();
  }, 90_000);
});

// On bnb: no suite file reorganizes bnb, while eth's reorg test (tests/chains/evm-lifecycle.test.ts) took this
// test's transaction out of the chain in CI.
describe("congest and drop (bnb)", () => {
  it(
    "congest: the next block has the base fee; " + "a transaction priced under it is not mined until its fee is raised",
    async () => {
      const w = await fundedWallet(m.sandboxKey, "bnb", "1.000000");
      const client = w.client as PublicClient;
      const send = (raw: Hex) => client.request({ method: "eth_sendRawTransaction", params: [raw] });
      const sign = (nonce: number, maxFeeGwei: string) =>
        w.wallet.signTransaction({
          to: evmAddress(),
          value: 1n,
          nonce,
          gas: 21_000n,
          maxFeePerGas: parseGwei(maxFeeGwei),
          maxPriorityFeePerGas: parseGwei("1"),
        });
      const before = (await client.getBlock()).baseFeePerGas!;
      const nonce = await client.getTransactionCount({ address: w.address, blockTag: "pending" });
      // Signed before the congestion and held back by a missing nonce, so it is in the pool when the fee rises.
      const queuedHash = await send(await sign(nonce + 1, "10"));
      const headBefore = await client.getBlockNumber();
      try {
        const reply = await control("bnb", "congest", { base_fee_gwei: "50" });
        expect(reply.status, reply.text).toBe(200);
        expect(reply.json).toEqual({
          object: "sandbox_chain_congested",
          chain: "bnb",
          base_fee_per_gas: "50000000000",
          compute_unit_price: null,
          head: expect.any(Number),
        });
        // The first block mined after the call has the base fee. Other suite files mine on the shared chain
        // meanwhile, so that block may come before the head the reply read: look from the head before the call.
        const last = BigInt(reply.json.head) + 1n;
        await waitForBlock(client, last);
        const fees: bigint[] = [];
        for (let n = headBefore + 1n; n <= last; n++)
          fees.push((await client.getBlock({ blockNumber: n })).baseFeePerGas!);
        expect(fees).toContain(parseGwei("50"));

        // Anvil refuses a transaction priced under the base fee at broadcast...
        await expect(send(await sign(nonce, "10"))).rejects.toThrow(/fee/i);
        // ...and drops the pooled one once it could be mined: the nonce it waited for goes in at a raised fee.
        const bumped = await send(await sign(nonce, "100"));
        const receipt = await client.waitForTransactionReceipt({ hash: bumped, pollingInterval: 50 });
        expect(receipt.status).toBe("success");
        // Mined while the base fee was still above the refused price (it falls by 1/8 per empty block).
        expect((await client.getBlock({ blockNumber: receipt.blockNumber })).baseFeePerGas!).toBeGreaterThan(
          parseGwei("10"),
        );
        await waitForBlock(client, receipt.blockNumber + 3n);
        expect(await client.getTransaction({ hash: queuedHash }).catch(() => null)).toBeNull();
        expect(await client.getTransactionCount({ address: w.address })).toBe(nonce + 1);

        // EIP-1559: blocks under their gas target lower the base fee again.
        const later = await client.getBlock();
        expect(later.baseFeePerGas!).toBeLessThan(parseGwei("50"));
      } finally {
        const restore = await control("bnb", "congest", { base_fee_gwei: formatGwei(before) });
        expect(restore.status, restore.text).toBe(200);
      }
    },
  );

  it("drop: a stalled transaction leaves the pool and is never mined", async () => {
    const w = await fundedWallet(m.sandboxKey, "bnb", "1.000000");
    const client = w.client as PublicClient;
    const nonce = await client.getTransactionCount({ address: w.address, blockTag: "pending" });
    const sign = async (n: number) =>
      w.wallet.signTransaction(await w.wallet.prepareTransactionRequest({ to: evmAddress(), value: 1n, nonce: n }));
    const send = (raw: Hex) => client.request({ method: "eth_sendRawTransaction", params: [raw] });

    // Stalled behind a missing nonce: it waits in the pool however many blocks pass.
    const stalled = await send(await sign(nonce + 1));
    await waitForBlock(client, (await client.getBlockNumber()) + 2n);
    expect((await client.getTransaction({ hash: stalled })).blockNumber).toBeNull();

    const reply = await control("bnb", "drop", { tx_hash: stalled });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ object: "sandbox_drop", chain: "bnb", tx_hash: stalled, dropped: true });
    expect(await client.getTransaction({ hash: stalled }).catch(() => null)).toBeNull();
    expect((await control("bnb", "drop", { tx_hash: stalled })).json.dropped).toBe(false);

    // The missing nonce arrives; the dropped transaction does not follow it.
    const filler = await send(await sign(nonce));
    const receipt = await client.waitForTransactionReceipt({ hash: filler, pollingInterval: 50 });
    await waitForBlock(client, receipt.blockNumber + 3n);
    expect(await client.getTransactionCount({ address: w.address })).toBe(nonce + 1);
    expect(await client.getTransaction({ hash: stalled }).catch(() => null)).toBeNull();
    expect((await control("bnb", "drop", { tx_hash: filler })).json.dropped).toBe(false); // mined, not pending
  });
});
