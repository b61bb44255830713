import { DomainError } from "@/lib/kernel/domain-error";
import type { Mode } from "@/lib/kernel/mode";
import { enabledChains, type Chain } from "./chains";

/** 400 chain_disabled (param "chain") unless the chain is enabled for the key's mode. */
export function requireEnabledChain(mode: Mode, chain: Chain): void {
  const enabled = enabledChains(mode);
  if (!enabled.includes(chain)) {
    const list = enabled.length
      ? `Enabled ${mode} chains: ${enabled.join(", ")}.`
      : `No ${mode} chain is enabled on this service.`;
    throw new DomainError("chain_disabled", `Chain '${chain}' is not enabled for ${mode} keys. ${list}`, {
      param: "chain",
    });
  }
}
