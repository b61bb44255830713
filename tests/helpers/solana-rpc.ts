import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from "@solana/kit";

/** Raw JSON-RPC, to check a node's exact codes and messages (kit turns them into typed errors). */
export async function rawRpc(
  url: string,
  method: string,
  params: unknown[],
): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return response.json();
}

/** A v0 transaction of these instructions, paid and signed by `feePayer`, on the latest confirmed blockhash. */
export async function signedTransaction(rpc: Rpc<SolanaRpcApi>, feePayer: KeyPairSigner, instructions: Instruction[]) {
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return signTransactionMessageWithSigners(message);
}

export async function waitForSignatureStatus(
  rpc: Rpc<SolanaRpcApi>,
  signature: Signature,
  wanted: "confirmed" | "finalized",
) {
  for (let i = 0; i < 200; i++) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    if (value[0]?.confirmationStatus === wanted) return value[0];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${signature} never reached ${wanted}`);
}
