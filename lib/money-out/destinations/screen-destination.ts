import type { ChainConfig } from "@/lib/chains/chain-config";
import { frozenByIssuer } from "@/lib/chains/connect/issuer-freeze";
import { log } from "@/lib/platform/log";
import type { OutboundRow } from "@/lib/money-out/outbound/outbound-row";
import { isSanctionedOnChain } from "./sanctions-oracle";

/** What the chain says of a transfer's destination, read before it is queued and again before it is signed. */
export interface DestinationScreening {
  /** The chain's sanctions oracle lists it (live EVM with `<CHAIN>_SANCTIONS_ORACLE`). */
  sanctioned: boolean;
  /** USDT's issuer froze it: a transfer would fail on chain and still pay its fee. */
  frozen: boolean;
}

export const UNSCREENED: DestinationScreening = { sanctioned: false, frozen: false };

/**
 * The sanctions oracle and the issuer's freeze for a payout's or refund's destination, or null when either
 * cannot be read now: the transfer waits (fail closed), logged without the RPC URL, which may carry a key.
 */
export async function screenDestination(
  config: ChainConfig,
  subject: string,
  address: string,
): Promise<DestinationScreening | null> {
  try {
    const [sanctioned, frozen] = await Promise.all([
      isSanctionedOnChain(config, address),
      frozenByIssuer(config, address),
    ]);
    return { sanctioned, frozen };
  } catch (err) {
    const reason = (err as { shortMessage?: string }).shortMessage ?? (err as Error).name;
    log.warn("the destination could not be screened (sanctions oracle, issuer freeze): the transfer waits", {
      chain: config.chain,
      subject,
      reason,
    });
    return null;
  }
}

/** For the outbound leader, just before it signs a payout's or a refund's transfer (other purposes pass). */
export const screenBeforeSigning =
  (purpose: "payout" | "refund") =>
  (config: ChainConfig, intent: OutboundRow): Promise<DestinationScreening | null> =>
    intent.purpose === purpose
      ? screenDestination(config, intent.causeId ?? intent.id, intent.toAddress)
      : Promise.resolve(UNSCREENED);
