import type { RequestOptions, Transport } from "../transport.js";
import type {
  Chain,
  SandboxChainCongested,
  SandboxChainList,
  SandboxChainMined,
  SandboxChainReorganized,
  SandboxCongestParams,
  SandboxDrop,
  SandboxDropParams,
  SandboxFaucetParams,
  SandboxFaucetTransfer,
  SandboxFreeze,
  SandboxFreezeParams,
  SandboxMineParams,
  SandboxReorgParams,
  SandboxSimulateDepositParams,
  SandboxDepositTransfer,
  SandboxSimulateParams,
  SandboxTransfer,
} from "../types.js";

const chainPath = (chain: Chain, action: string) => `/v1/sandbox/chains/${encodeURIComponent(chain)}/${action}`;

/**
 * `/v1/sandbox/…`: test helpers on the local chains, for sandbox keys only. `reorg`, `drop`, `congest`,
 * `freeze` and `unfreeze` change a chain every merchant shares and need the `sandbox:chains` scope.
 */
export class Sandbox {
  constructor(private readonly http: Transport) {}

  listChains(options?: RequestOptions) {
    return this.http.request<SandboxChainList>({ method: "GET", path: "/v1/sandbox/chains", options });
  }

  /** Mints test USDT (and gas) to an address. */
  faucet(params: SandboxFaucetParams, options?: RequestOptions) {
    return this.post<SandboxFaucetTransfer>("/v1/sandbox/faucet", params, options);
  }

  /** Pays a payment with a real transfer (by default what is still owed). */
  simulatePayment(paymentId: string, params?: SandboxSimulateParams, options?: RequestOptions) {
    const path = `/v1/sandbox/payments/${encodeURIComponent(paymentId)}/simulate`;
    return this.post<SandboxTransfer>(path, params, options);
  }

  /** Sends `amount` to a deposit address with a real transfer; the watcher records it as any deposit. */
  simulateDeposit(depositAddressId: string, params: SandboxSimulateDepositParams, options?: RequestOptions) {
    const path = `/v1/sandbox/deposit_addresses/${encodeURIComponent(depositAddressId)}/simulate`;
    return this.post<SandboxDepositTransfer>(path, params, options);
  }

  mine(chain: Chain, params?: SandboxMineParams, options?: RequestOptions) {
    return this.post<SandboxChainMined>(chainPath(chain, "mine"), params, options);
  }

  reorg(chain: Chain, params: SandboxReorgParams, options?: RequestOptions) {
    return this.post<SandboxChainReorganized>(chainPath(chain, "reorg"), params, options);
  }

  drop(chain: Chain, params: SandboxDropParams, options?: RequestOptions) {
    return this.post<SandboxDrop>(chainPath(chain, "drop"), params, options);
  }

  congest(chain: Chain, params: SandboxCongestParams, options?: RequestOptions) {
    return this.post<SandboxChainCongested>(chainPath(chain, "congest"), params, options);
  }

  freeze(chain: Chain, params: SandboxFreezeParams, options?: RequestOptions) {
    return this.post<SandboxFreeze>(chainPath(chain, "freeze"), params, options);
  }

  unfreeze(chain: Chain, params: SandboxFreezeParams, options?: RequestOptions) {
    return this.post<SandboxFreeze>(chainPath(chain, "unfreeze"), params, options);
  }

  private post<T>(path: string, body: unknown, options: RequestOptions | undefined) {
    return this.http.request<T>({ method: "POST", path, body, options });
  }
}
