import type { ChainConfig } from "@/lib/chains/chain-config";
import type { WalletRole } from "@/lib/chains/wallets/wallet-roles";
import { type Db, inTransaction } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { createOutbound } from "./create-outbound";

export interface SetupCall {
  /** `approve` (a role's allowance for a service contract) or `undelegate` (clearing a role's EIP-7702 code). */
  purpose: "approve" | "undelegate";
  /** What it is about (the contract approved, the account undelegated): one open call per subject. */
  subject: string;
  signer: { role: WalletRole; address: string };
  /** The call: a contract and its call data, or (no data) the signer's call to itself. */
  to: string;
  evmData?: string;
}

/**
 * A one-off call a role makes to set something up, through the outbound journal: recorded unless one is open
 * (`outbound_one_open_setup`), whose id is then returned. The caller decides from the chain that it is needed.
 */
export async function ensureSetupCall(db: Db, config: ChainConfig, call: SetupCall): Promise<string> {
  const open = async () =>
    (
      await query<{ id: string }>(
        db,
        `select id from outbound_transactions where mode = $1 and chain = $2 and purpose = $3 and cause_id = $4
            and status not in ('confirmed','reverted','expired')`,
        [config.mode, config.chain, call.purpose, call.subject],
      )
    )[0]?.id;
  const existing = await open();
  if (existing) return existing;
  try {
    const recorded = await inTransaction(db, (tx) =>
      createOutbound(tx, {
        mode: config.mode,
        chain: config.chain,
        purpose: call.purpose,
        signer: { role: call.signer.role },
        fromAddress: call.signer.address,
        toAddress: call.to,
        asset: "native",
        rawAmount: 0n,
        causeId: call.subject,
        options: call.evmData ? { evmData: call.evmData } : {},
      }),
    );
    log.info(`${call.purpose} recorded`, { mode: config.mode, chain: config.chain, subject: call.subject });
    return recorded.id;
  } catch (err) {
    if (!String(err).includes("outbound_one_open_setup")) throw err;
    return (await open())!; // another process recorded it first
  }
}
