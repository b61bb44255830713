import { formatUnits, parseUnits } from "viem";
import { expect } from "vitest";
import { CHAIN_SPECS } from "@/lib/chains/chain-registry";
import type { Chain } from "@/lib/chains/chains";
import { getDb } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { runCli } from "../helpers/run-cli";

/** A chain's native base units as reconcile and `custody fund` write them ("-0.000021", "100"). */
export const nativeText = (chain: Chain, units: bigint) => formatUnits(units, CHAIN_SPECS[chain].native.decimals);

/** `cli custody fund` as an operator runs it (a negative amount: coins taken from the role). */
export async function bookNative(
  chain: Chain,
  role: "treasury" | "sweeper",
  units: bigint,
  opts: { tx?: string; note: string },
) {
  return runCli(
    [
      "custody",
      "fund",
      "--mode",
      "sandbox",
      "--chain",
      chain,
      "--role",
      role,
      `--amount=${nativeText(chain, units)}`,
      ...(opts.tx ? ["--tx", opts.tx] : []),
      "--note",
      opts.note,
      "--json",
    ],
    process.env,
  );
}

/** What the sandbox faucet gave an address so far, as the books recorded it (custody_fundings). */
export async function faucetFunded(chain: Chain, address: string): Promise<bigint> {
  const [row] = await query<{ total: string }>(
    getDb(),
    `select coalesce(sum(amount), 0)::text as total from custody_fundings
     where mode = 'sandbox' and chain = $1 and address = $2 and source = 'faucet'`,
    [chain, address],
  );
  return BigInt(row!.total);
}

/** Reconcile's native text back in base units. */
export const nativeUnits = (chain: Chain, text: string) => parseUnits(text, CHAIN_SPECS[chain].native.decimals);

/** The alert reconcile raises for a role holding `units` less native coin than its books. */
export const nativeAlert = (chain: Chain, role: string, units: bigint) =>
  `native: the ${role} holds ${nativeText(chain, units)} ` +
  `${CHAIN_SPECS[chain].native.symbol} less on chain than the custody books hold`;

export function expectBooked(run: { code: number; stdout: string; stderr: string }) {
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { id: string; amount: string; address: string; tx_hash: string | null };
}
