import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, erc20Abi, http, parseEventLogs, type Address } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/platform/db/embedded";
import { startAnvil, type RunningAnvil } from "@/sandbox/evm/anvil";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";

const running: RunningAnvil[] = [];
afterAll(async () => {
  await Promise.all(running.map((a) => a.stop()));
});

const owner = anvilAccount();
const payer = anvilAccount(1);
const chainOf = (id: number, rpcUrl: string) =>
  ({
    id,
    name: `sandbox-${id}`,
    nativeCurrency: { name: "ETH", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  }) as const;

describe("sandbox EVM chain: a real anvil with a USDT-like token", () => {
  it("eth flavour: 6 decimals and a transfer that returns nothing, like mainnet USDT", async () => {
    const anvil = await startAnvil({ chainId: 900_001, port: await freePort(), blockTime: 0.2 });
    running.push(anvil);
    const token = await deploySandboxToken(anvil.rpcUrl, "no_return", 6);
    const client = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 });
    const wallet = (account: typeof owner) =>
      createWalletClient({ account, chain: chainOf(900_001, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
    expect(await client.readContract({ address: token, abi: TOKEN_ABI.no_return, functionName: "decimals" })).toBe(6);

    await client.waitForTransactionReceipt({
      hash: await wallet(owner).writeContract({
        address: token,
        abi: TOKEN_ABI.no_return,
        functionName: "mint",
        args: [payer.address, 50_000_000n],
      }),
    });
    const to = "0x000000000000000000000000000000000000dEaD" as Address;
    // viem's standard ERC-20 ABI expects a bool and fails simulation against this token, as against mainnet USDT.
    await expect(
      client.simulateContract({
        account: payer,
        address: token,
        abi: erc20Abi,
        functionName: "transfer",
        args: [to, 1n],
      }),
    ).rejects.toThrow();
    const hash = await wallet(payer).writeContract({
      address: token,
      abi: TOKEN_ABI.no_return,
      functionName: "transfer",
      args: [to, 25_000_000n],
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const [transfer] = parseEventLogs({ abi: TOKEN_ABI.no_return, logs: receipt.logs, eventName: "Transfer" });
    expect(transfer!.args).toEqual({ from: payer.address, to, value: 25_000_000n });
    expect(
      await client.readContract({ address: token, abi: TOKEN_ABI.no_return, functionName: "balanceOf", args: [to] }),
    ).toBe(25_000_000n);
  });

  it("bnb flavour: 18 decimals, standard ERC-20; state survives a restart via --state", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-anvil-"));
    const stateFile = path.join(dir, "bnb.json");
    const port = await freePort();
    const first = await startAnvil({ chainId: 900_056, port, blockTime: 0.2, stateFile, stateInterval: 1 });
    const token = await deploySandboxToken(first.rpcUrl, "standard", 18);
    const client = createPublicClient({ transport: http(first.rpcUrl), pollingInterval: 50 });
    expect(await client.readContract({ address: token, abi: erc20Abi, functionName: "decimals" })).toBe(18);
    await first.stop();

    const second = await startAnvil({ chainId: 900_056, port, blockTime: 0.2, stateFile, stateInterval: 1 });
    running.push(second);
    const again = createPublicClient({ transport: http(second.rpcUrl) });
    expect(await again.getCode({ address: token })).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await again.readContract({ address: token, abi: erc20Abi, functionName: "symbol" })).toBe("USDT");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
