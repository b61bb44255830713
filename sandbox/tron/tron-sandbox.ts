import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import { TronWeb } from "tronweb";
import { freePort } from "@/lib/platform/db/embedded";
import { startAnvil } from "@/sandbox/evm/anvil";
import { deploySandboxToken, TOKEN_ABI } from "@/sandbox/evm/sandbox-token";
import { toBase58, toTronHex } from "./address";
import { anvilRpc } from "./anvil-rpc";
import { DEFAULT_SOLID_LAG } from "./blocks";
import type { FacadeContext } from "./context";
import { startHttpServer } from "./http-server";
import type { TronSandboxInfo } from "./sandbox-info";
import { callAsTokenOwner, sendDistinct, tokenOwner, topUpFaucet, waitMined } from "./token-owner";
import { anvilAccount } from "@/sandbox/evm/anvil-accounts";
import { TronAccounts } from "./accounts";
import { MAINNET_PARAMETERS, SANDBOX_NETWORK_WEIGHTS, type TronChainParameters } from "./resources";
import { TxIndex } from "./tx-index";

/** Not Tron mainnet's chain id (0x2b6653dc), so nothing mistakes the sandbox for the real chain. */
export const TRON_SANDBOX_CHAIN_ID = 900_195;

export type { TronSandboxInfo } from "./sandbox-info";

interface Registry {
  anvilPort: number;
  port: number;
  token?: `0x${string}`;
}

/**
 * The sandbox Tron chain: anvil (state in <dataDir>/sandbox/tron/anvil-state.json) behind a Tron HTTP API
 * facade, with a 6-decimal USDT-like token deployed on first start. Ports and the token address are kept in
 * registry.json, Tron txIDs in tx-index.jsonl, so a restart comes back with the same chain.
 */
export async function startTronSandbox(opts: {
  dataDir: string;
  blockTime?: number;
  port?: number;
  /** Committee parameters to charge by instead of mainnet's (a test's cheaper energy, say). */
  parameters?: Partial<TronChainParameters>;
  /** Blocks to solidify (mainnet's 19 unless a test stack wants finality sooner). */
  solidLag?: number;
}): Promise<{ info: TronSandboxInfo; stop(): Promise<void> }> {
  const dir = path.join(opts.dataDir, "sandbox", "tron");
  fs.mkdirSync(dir, { recursive: true });
  const registryFile = path.join(dir, "registry.json");
  const registry: Registry = readRegistry(registryFile) ?? {
    anvilPort: await freePort(),
    port: opts.port ?? (await freePort()),
  };
  if (opts.port) registry.port = opts.port;
  const blockTime = opts.blockTime ?? 1;
  const solidLag = opts.solidLag ?? DEFAULT_SOLID_LAG;
  const anvil = await startAnvil({
    chainId: TRON_SANDBOX_CHAIN_ID,
    port: registry.anvilPort,
    blockTime,
    stateFile: path.join(dir, "anvil-state.json"),
    stateInterval: 1,
  });
  let server: http.Server | undefined;
  try {
    const rpc = anvilRpc(anvil.rpcUrl);
    // Any Tron owner's signed transaction runs as eth_sendTransaction from its address; a zero base fee means
    // contract calls burn nothing, since energy and bandwidth are not emulated.
    await rpc("anvil_autoImpersonateAccount", [true]);
    await rpc("anvil_setNextBlockBaseFeePerGas", ["0x0"]);
    const index = new TxIndex(path.join(dir, "tx-index.jsonl"));
    const code = registry.token ? await rpc<string>("eth_getCode", [registry.token, "latest"]) : "0x";
    const accountsFile = path.join(dir, "accounts.json");
    // A chain from before accounts were tracked keeps treating any address anvil knows as existing.
    const accounts = new TronAccounts(accountsFile, {
      genesis: genesisAccounts(),
      legacy: Boolean(registry.token) && code !== "0x" && !fs.existsSync(accountsFile),
      weights: SANDBOX_NETWORK_WEIGHTS,
    });
    if (code === "0x") {
      // First start, or the anvil state was lost: the old txIDs point at nothing any more.
      if (registry.token) {
        index.clear();
        accounts.reset();
      }
      registry.token = await deploySandboxToken(anvil.rpcUrl, "standard", 6);
    }
    fs.writeFileSync(registryFile, JSON.stringify(registry, null, 2));
    const ctx: FacadeContext = {
      rpc,
      index,
      chainId: TRON_SANDBOX_CHAIN_ID,
      token: { hex: toTronHex(registry.token!), abi: TOKEN_ABI.standard },
      accounts,
      parameters: { ...MAINNET_PARAMETERS, ...opts.parameters },
      solidLag,
    };
    server = await startHttpServer(ctx, registry.port);
  } catch (e) {
    await anvil.stop();
    throw e;
  }
  const fullHost = `http://127.0.0.1:${registry.port}`;
  const info: TronSandboxInfo = {
    fullHost,
    jsonRpcUrl: `${fullHost}/jsonrpc`,
    anvilRpcUrl: anvil.rpcUrl,
    token: toBase58(registry.token!),
    tokenHex: registry.token!,
    decimals: 6,
    blockTimeMs: blockTime * 1000,
    solidLag,
  };
  const httpServer = server;
  return {
    info,
    async stop() {
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      await anvil.stop();
    },
  };
}

/** Anvil's ten funded dev accounts (the token owner is the first): the chain's genesis accounts. */
const genesisAccounts = () => Array.from({ length: 10 }, (_, i) => toTronHex(anvilAccount(i).address));

function readRegistry(file: string): Registry | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Registry;
  } catch {
    return null;
  }
}

/**
 * Funds a Tron address the way a real faucet would: a signed TransferContract (TRX, in sun) and a signed
 * TriggerSmartContract `mint(address,uint256)` from the token owner, both through the facade, so they have
 * real Tron txIDs, appear in blocks and logs, and are mined when this resolves.
 * `txID` is the mint's Tron txID (the TRX transfer's when no USDT was asked for).
 */
export async function fundTronAddress(
  info: TronSandboxInfo,
  address: string,
  opts: { usdtUnits?: bigint; trxSun?: bigint },
): Promise<{ txID: string; trxTxID?: string; usdtTxID?: string }> {
  const to = toBase58(address);
  const { privateKey, address: faucet } = tokenOwner();
  const tronWeb = new TronWeb({ fullHost: info.fullHost, privateKey });
  let trxTxID: string | undefined;
  let usdtTxID: string | undefined;
  if (opts.trxSun && opts.trxSun > 0n) {
    // Top the faucet up by the amount first: anvil's 10,000 ETH are only 10,000 TRX at 1 sun = 10^12 wei.
    await topUpFaucet(info, opts.trxSun);
    trxTxID = await sendDistinct("TRX funding", async () => {
      // TronWeb builds a TRX transfer itself, timestamped with the head block's time: two equal fundings in one block
      // would be one transaction. The wall clock's timestamp, as java-tron's builders (and the service's driver) set.
      const ref = await tronWeb.trx.getCurrentRefBlockParams();
      const header = { blockHeader: { ...ref, timestamp: Date.now() } };
      const transfer = await tronWeb.transactionBuilder.sendTrx(to, Number(opts.trxSun), toBase58(faucet), header);
      return tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transfer));
    });
  }
  if (opts.usdtUnits && opts.usdtUnits > 0n) {
    usdtTxID = await callAsTokenOwner(info, "mint(address,uint256)", [
      { type: "address", value: to },
      { type: "uint256", value: opts.usdtUnits.toString() },
    ]);
  }
  const txID = usdtTxID ?? trxTxID;
  if (!txID) throw new Error("fundTronAddress: nothing to fund (give usdtUnits and/or trxSun)");
  for (const id of [trxTxID, usdtTxID]) if (id) await waitMined(info, id);
  return { txID, trxTxID, usdtTxID };
}
