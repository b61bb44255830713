import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { checkLedgerConsistency } from "@/lib/ledger/check-ledger-consistency";
import { getDb } from "@/lib/db/client";
import { planSweeps } from "@/lib/sweeps/plan-sweeps";
import type { SpawnedWorker } from "@/scripts/lib/spawn-worker";
import { newMerchant, type TestMerchant } from "../helpers/api";
import { balanceOf, startWatcherProcess } from "../helpers/chains";
import { runCli } from "../helpers/run-cli";
import { evmChain, outbound, startOutboundWorker, waitForStatus } from "./outbound-helpers";
import { paidPayment, sweepsOf } from "./payment-helpers";

// polygon: this file owns its watcher and outbound leader (tests/custody/README.md).
const CHAIN = "polygon" as const;
let chain: Awaited<ReturnType<typeof evmChain>>;
let watcher: SpawnedWorker;
let sender: SpawnedWorker;
let m: TestMerchant;

const paid = (amount: string) => paidPayment(m, CHAIN, amount);

beforeAll(async () => {
  [watcher, sender, chain, m] = await Promise.all([
    startWatcherProcess([CHAIN]),
    startOutboundWorker(CHAIN),
    evmChain(CHAIN),
    newMerchant("Sweeps"),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([watcher?.stop(), sender?.stop()]);
});

describe("sweeping deposit addresses into the treasury (EVM, top-up strategy)", () => {
  let dust: string;

  it("sweeps what is at or above the threshold, exactly, after topping each address up with its gas; dust stays, listed", async () => {
    const [a, b, small] = await Promise.all([paid("5.000000"), paid("3.500000"), paid("0.400000")]);
    dust = small;
    const merchantBefore = await balanceOf(m.sandboxKey, CHAIN);
    const treasuryBefore = await chain.balanceOf(chain.treasury.address);

    const planned = await planSweeps(getDb(), chain.config);
    expect(planned.map((p) => p.address).sort()).toEqual([a, b].sort());
    expect(planned.every((p) => p.topupId !== null)).toBe(true); // they held no gas
    for (const p of planned) await waitForStatus(p.sweepId, "confirmed", 60_000);

    expect(await chain.balanceOf(chain.treasury.address)).toBe(treasuryBefore + 8_500_000n);
    expect(await chain.balanceOf(a)).toBe(0n);
    expect(await chain.balanceOf(b)).toBe(0n);
    expect(await chain.balanceOf(small)).toBe(400_000n);
    for (const p of planned) {
      const topup = await outbound(p.topupId!);
      const sweep = await outbound(p.sweepId);
      expect(topup.status).toBe("confirmed");
      expect(sweep.after).toBe(topup.id);
      // The top-up gave exactly gas × max fee; the sweep paid at most that, and the rest stays as the address's gas.
      expect(sweep.feeNative! <= topup.rawAmount).toBe(true);
      const left = await chain.client.getBalance({ address: p.address as Hex });
      expect(left).toBe(topup.rawAmount - sweep.feeNative!);
    }
    // Sweeps move the service's custody, never a merchant's balance.
    expect(await balanceOf(m.sandboxKey, CHAIN)).toEqual(merchantBefore);
    expect(await checkLedgerConsistency(getDb(), m.id)).toEqual([]);

    const listed = await runCli(["sweeps", "list", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).data).toEqual([
      { chain: CHAIN, address: small, unswept: "0.400000", threshold: "1.000000", state: "dust" },
    ]);
    expect(await planSweeps(getDb(), chain.config)).toEqual([]); // nothing is planned twice
  });

  it("two planners at once sweep each address once", async () => {
    const addresses = await Promise.all([paid("2.000000"), paid("2.500000")]);
    const [first, second] = await Promise.all([planSweeps(getDb(), chain.config), planSweeps(getDb(), chain.config)]);
    expect([...first, ...second].map((p) => p.address).sort()).toEqual([...addresses].sort());
    for (const address of addresses) {
      const sweeps = await sweepsOf(address);
      expect(sweeps).toHaveLength(1);
      await waitForStatus(sweeps[0]!.id, "confirmed", 60_000);
      expect(await chain.balanceOf(address)).toBe(0n);
    }
  });

  it("when payouts need liquidity, dust below the threshold is swept too, largest first", async () => {
    const planned = await planSweeps(getDb(), chain.config, { needUnits: 300_000n });
    expect(planned.map((p) => p.address)).toEqual([dust]);
    await waitForStatus(planned[0]!.sweepId, "confirmed", 60_000);
    expect(await chain.balanceOf(dust)).toBe(0n);
    const listed = await runCli(["sweeps", "list", "--mode", "sandbox", "--chain", CHAIN, "--json"], process.env);
    expect(JSON.parse(listed.stdout).data).toEqual([]);
  });
});
