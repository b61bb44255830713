import { toQuantity, type Rpc } from "./anvil-rpc";

/**
 * Blocks become "solidified" (visible on /walletsolidity) 19 blocks behind the head, as with 27 SRs. A test stack
 * passes a smaller lag (`startTronSandbox({ solidLag })`) to wait for what happens rather than for blocks.
 */
export const DEFAULT_SOLID_LAG = 19;
/** java-tron's default expiration window for transactions it builds. */
export const EXPIRATION_MS = 60_000;

export interface EthLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed?: boolean;
}
export interface EthTx {
  hash: string;
  from: string;
  to: string | null;
  input: string;
  value: string;
  blockHash: string | null;
  blockNumber: string | null;
  [k: string]: unknown;
}
export interface EthBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactionsRoot: string;
  miner: string;
  transactions: (string | EthTx)[];
  [k: string]: unknown;
}

/**
 * Tron blockID = 8-byte big-endian number ‖ last 24 bytes of the anvil block hash, the same layout as
 * java-tron (number ‖ tail of sha256(header)). It is derived, never stored: anvil's --state keeps the hashes.
 */
export function blockIdOf(num: number | bigint | string, ethHash: string): string {
  return BigInt(num).toString(16).padStart(16, "0") + ethHash.replace(/^0x/, "").toLowerCase().slice(16);
}

export const numberOfBlockId = (blockId: string): number => parseInt(blockId.replace(/^0x/, "").slice(0, 16), 16);

export async function headNumber(rpc: Rpc): Promise<number> {
  return Number(await rpc<string>("eth_blockNumber"));
}

export async function ethBlock(rpc: Rpc, num: number, full = false): Promise<EthBlock | null> {
  if (!Number.isSafeInteger(num) || num < 0) return null;
  return rpc<EthBlock | null>("eth_getBlockByNumber", [toQuantity(num), full]);
}

/** The anvil block behind a Tron blockID, or null if no block has that id. */
export async function ethBlockById(rpc: Rpc, blockId: string, full = false): Promise<EthBlock | null> {
  const id = blockId.replace(/^0x/, "").toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) return null;
  const block = await ethBlock(rpc, numberOfBlockId(id), full);
  return block && blockIdOf(block.number, block.hash) === id ? block : null;
}

export const tronBlockId = (b: EthBlock): string => blockIdOf(b.number, b.hash);
export const blockTimeMs = (b: EthBlock): number => Number(b.timestamp) * 1000;

/**
 * The TAPOS fields java-tron (and TronWeb's txLocal path) take from a block: number bytes 6..8, blockID bytes 8..16.
 */
export function refBlockParams(b: EthBlock): {
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
} {
  const id = tronBlockId(b);
  return {
    ref_block_bytes: id.slice(12, 16),
    ref_block_hash: id.slice(16, 32),
    expiration: blockTimeMs(b) + EXPIRATION_MS,
    timestamp: blockTimeMs(b),
  };
}

/**
 * java-tron's TAPOS check: its recent-block store keeps the last 65,536 blocks keyed by the low two bytes
 * of the number, so the reference is the newest block ≤ head with those bytes, and its id must match.
 */
export async function taposMatches(
  rpc: Rpc,
  head: number,
  refBlockBytes: string,
  refBlockHash: string,
): Promise<boolean> {
  if (!/^[0-9a-f]{4}$/i.test(refBlockBytes) || !/^[0-9a-f]{16}$/i.test(refBlockHash)) return false;
  const low = parseInt(refBlockBytes, 16);
  const num = head - ((((head - low) % 65_536) + 65_536) % 65_536);
  const block = num >= 0 ? await ethBlock(rpc, num) : null;
  return !!block && tronBlockId(block).slice(16, 32) === refBlockHash.toLowerCase();
}

/** The header part of a Tron block. The witness is anvil's coinbase; there is no witness signature. */
export function tronBlockHeader(b: EthBlock, visible: boolean, formatAddress: (a: string, v: boolean) => string) {
  const num = Number(b.number);
  return {
    blockID: tronBlockId(b),
    block_header: {
      raw_data: {
        number: num,
        txTrieRoot: b.transactionsRoot.replace(/^0x/, ""),
        witness_address: formatAddress(b.miner, visible),
        parentHash: num === 0 ? "0".repeat(64) : blockIdOf(num - 1, b.parentHash),
        version: 31,
        timestamp: blockTimeMs(b),
      },
      witness_signature: "",
    },
  };
}
