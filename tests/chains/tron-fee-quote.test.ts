import { randomBytes } from "node:crypto";
import { TronWeb } from "tronweb";
import { describe, expect, it } from "vitest";
import { sandboxChainOps } from "@/lib/chains/connect/chain-families";
import { quoteTokenTransfer } from "@/lib/chains/tron/tron-fees";
import { TronNode } from "@/lib/chains/tron/tron-node";
import { sandboxChain } from "../helpers/chains";

const fresh = () => TronWeb.address.fromPrivateKey(randomBytes(32).toString("hex")) as string;
const FIFTY_TRX = 50_000_000n;

// A Tron transfer's fee_limit comes from the node's energy estimate for that very transfer, at the chain's energy
// price, plus 30 %, and never above TRON_MAX_FEE_TRX (docs/CUSTODY.md, "Tron").
describe("Tron fee limits from the node's estimate", () => {
  it(
    "prices USDT into an empty balance at 130,285 energy and into a holder at 64,285, " + "at 100 sun with 30 %",
    async () => {
      const config = await sandboxChain("tron");
      const node = new TronNode(config);
      const [sender, holder] = [fresh(), fresh()];
      const ops = await sandboxChainOps(config);
      await Promise.all([ops.fund(sender, 10_000_000n), ops.fund(holder, 1n)]);

      const empty = await quoteTokenTransfer(node, config.tokenAddress, sender, fresh(), 1_000_000n, FIFTY_TRX);
      expect(empty).toEqual({
        energy: 130_285n,
        energyPriceSun: 100n,
        bytePriceSun: 1_000n,
        feeLimitSun: 16_937_050n,
        bandwidthSun: 360_000n,
      });
      const held = await quoteTokenTransfer(node, config.tokenAddress, sender, holder, 1_000_000n, FIFTY_TRX);
      expect(held.feeLimitSun).toBe(8_357_050n);
    },
  );

  it(
    "refuses a limit above the cap (the transfer waits), " + "and has no estimate for a transfer whose dry run fails",
    async () => {
      const config = await sandboxChain("tron");
      const node = new TronNode(config);
      const sender = fresh();
      await (await sandboxChainOps(config)).fund(sender, 10_000_000n);
      await expect(
        quoteTokenTransfer(node, config.tokenAddress, sender, fresh(), 1_000_000n, 10_000_000n),
      ).rejects.toThrow(/fee_limit of 16937050 sun .* above the cap of 10000000 sun \(TRON_MAX_FEE_TRX\)/);
      // More USDT than the sender holds: the constant call reverts, so there is no estimate to sign with.
      await expect(
        quoteTokenTransfer(node, config.tokenAddress, sender, fresh(), 20_000_000n, FIFTY_TRX),
      ).rejects.toThrow(/cannot estimate this transfer, its dry run fails: CONTRACT_EXE_ERROR/);
    },
  );
});
