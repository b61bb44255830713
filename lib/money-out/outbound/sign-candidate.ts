import { sameAddress } from "@/lib/chains/address-key";
import { inTransaction, type Db } from "@/lib/platform/db/client";
import { query } from "@/lib/platform/db/query";
import { log } from "@/lib/platform/log";
import { allocateNonce } from "./allocate-nonce";
import { crashPoint } from "./crash-points";
import type { IntentKeys, OutboundDriver } from "../../chains/outbound-driver";
import { hooksOf } from "./outbound-hooks";
import { candidateRow, outboundRow, type CandidateRow, type OutboundRow } from "./outbound-row";
import { closeOpenCandidates, transitionOutbound } from "./transition-outbound";

/**
 * Why a candidate is signed: the intent's first; a fee replacement (same nonce, higher fees); or a re-sign
 * after every earlier candidate provably cannot land (a new nonce, blockhash or expiration).
 */
export type SignKind = "first" | "bump" | "resign";

/**
 * Signs a candidate and commits its bytes and hash, with the nonce it uses, in one transaction; nothing is
 * broadcast before that commit (the caller sends it afterwards). Network reads (fees, blockhash, the signer's
 * mined count) happen before the transaction. Returns null when there is nothing to sign (no better fees
 * under the cap, or the intent moved meanwhile).
 */
export async function signCandidate(
  db: Db,
  driver: OutboundDriver,
  keys: IntentKeys,
  intent: OutboundRow,
  kind: SignKind,
  previous: CandidateRow | null,
  /** A first signing: its hooks' screening answer (a payout's destination sanctioned or frozen), read just before. */
  screened?: unknown,
): Promise<CandidateRow | null> {
  if (!sameAddress(keys.signer.address, intent.fromAddress))
    throw new Error(`outbound ${intent.id}: the signing key is not ${intent.fromAddress}`);
  const reserved = driver.maxNativeCost ? await reservedNative(db, driver, intent) : 0n;
  const prepared = await driver.prepare(intent, kind === "bump" ? previous : null, keys, reserved);
  if (!prepared) return null;
  const chainCount =
    driver.usesNonces && kind !== "bump" ? await driver.chainNonce!(intent.fromAddress, "latest") : null;
  const stored = await inTransaction(db, async (tx) => {
    const [locked] = await query(
      tx,
      `select ${outboundRow.columns} from outbound_transactions where id = $1 for update`,
      [intent.id],
    );
    const current = outboundRow.map(locked!);
    if (current.status !== intent.status || current.resigns !== intent.resigns) return null;
    // The transfer's domain may refuse it here (a payout's destination on the deny-list since it was queued).
    if (kind === "first" && (await hooksOf(current.purpose).refuseSigning?.(tx, current, screened))) return null;
    const nonce = !driver.usesNonces
      ? null
      : kind === "bump"
        ? current.nonce
        : await allocateNonce(tx, current, chainCount!, driver.noncesUsed?.(prepared) ?? 1);
    const signed = await driver.sign(current, keys, prepared, nonce);
    const [row] = await query(
      tx,
      `insert into outbound_candidates
         (outbound_id, tx_hash, status, signed_tx, nonce, max_fee_per_gas, max_priority_fee_per_gas, valid_until)
       values ($1, $2, 'signed', $3, $4, $5, $6, $7)
       returning ${candidateRow.columns}`,
      [
        current.id,
        signed.txHash,
        signed.signedTx,
        signed.nonce?.toString() ?? null,
        signed.maxFeePerGas?.toString() ?? null,
        signed.maxPriorityFeePerGas?.toString() ?? null,
        signed.validUntil?.toString() ?? null,
      ],
    );
    if (kind === "first") await transitionOutbound(tx, current, "signed", { nonce, txHash: signed.txHash });
    if (kind === "resign") {
      await closeOpenCandidates(tx, current.id, "expired", row!.id);
      await transitionOutbound(tx, current, "resigned", { nonce, txHash: signed.txHash, resigns: current.resigns + 1 });
    }
    return candidateRow.map(row!);
  });
  if (stored) {
    log.info("outbound transaction signed", {
      id: intent.id,
      kind,
      tx: stored.txHash,
      nonce: stored.nonce?.toString(),
    });
    crashPoint("after_sign", intent);
  }
  return stored;
}

/**
 * What the signer's other transactions on their way (signed or broadcast, not yet in a block) may still take of its
 * native coin: a node debits none of it until they land.
 */
async function reservedNative(db: Db, driver: OutboundDriver, intent: OutboundRow): Promise<bigint> {
  const rows = await query(
    db,
    `select ${candidateRow.prefixed("c")} from outbound_candidates c
       join outbound_transactions o on o.id = c.outbound_id
      where o.mode = $1 and o.chain = $2 and o.status in ('signed', 'broadcast') and o.from_address = $3 and o.id <> $4
        and c.status in ('signed', 'broadcast')`,
    [intent.mode, intent.chain, intent.fromAddress, intent.id],
  );
  return rows.map(candidateRow.map).reduce((sum, c) => sum + driver.maxNativeCost!(c), 0n);
}
