import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  getTransactionEncoder,
  isSolanaError,
  lamports,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type Signature,
  type SolanaRpcApi,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  fetchToken,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTokenDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundSolanaAddress } from "@/sandbox/solana/solana-faucet";
import { rawRpc, signedTransaction, waitForSignatureStatus } from "../helpers/solana-rpc";
import {
  readSolanaSandboxSecret,
  startSolanaSandbox,
  type RunningSolanaSandbox,
} from "@/sandbox/solana/solana-sandbox";

// A wallet's view of the sandbox chain: only @solana/kit and the program clients talk to the facade.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-solana-"));
let sandbox: RunningSolanaSandbox;
let rpc: Rpc<SolanaRpcApi>;
let mint: Address;
let payer: KeyPairSigner;
let recipient: KeyPairSigner;
let payerAta: Address;
let recipientAta: Address;
let fundSignature: Signature;
let transferSignature: Signature;
let transferSlot: bigint;

const SOL = 1_000_000_000n;
const ATA_RENT = 2_039_280n;

const raw = (method: string, params: unknown[]) => rawRpc(sandbox.info.rpcUrl, method, params);
const signed = (feePayer: KeyPairSigner, instructions: Instruction[]) => signedTransaction(rpc, feePayer, instructions);
const waitForStatus = (signature: Signature, wanted: "confirmed" | "finalized") =>
  waitForSignatureStatus(rpc, signature, wanted);

const transferTo = (amount: bigint) =>
  getTransferCheckedInstruction({
    source: payerAta,
    mint,
    destination: recipientAta,
    authority: payer,
    amount,
    decimals: 6,
  });

beforeAll(async () => {
  sandbox = await startSolanaSandbox({ dataDir, slotMs: 100 });
  rpc = createSolanaRpc(sandbox.info.rpcUrl);
  mint = sandbox.info.mint as Address;
  payer = await generateKeyPairSigner();
  recipient = await generateKeyPairSigner();
  [payerAta] = await findAssociatedTokenPda({ owner: payer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  [recipientAta] = await findAssociatedTokenPda({
    owner: recipient.address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
});

afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("sandbox Solana chain: LiteSVM behind a JSON-RPC facade", () => {
  it(
    "funds a payer, then a transferChecked that creates the recipient's ATA confirms, " +
      "finalizes and reads back everywhere",
    async () => {
      expect(sandbox.info.decimals).toBe(6);
      const secret = readSolanaSandboxSecret(dataDir);
      expect((await createKeyPairSignerFromBytes(secret)).address).toBe(sandbox.info.mintAuthority);
      expect(fs.statSync(path.join(dataDir, "sandbox/solana/registry.json")).mode & 0o777).toBe(0o600);

      fundSignature = (
        await fundSolanaAddress(sandbox.info, secret, payer.address, { usdtUnits: 100_000_000n, lamports: 2n * SOL })
      ).signature as Signature;
      expect((await rpc.getBalance(payer.address).send()).value).toBe(2n * SOL);
      expect((await rpc.getTokenAccountBalance(payerAta).send()).value).toMatchObject({
        amount: "100000000",
        decimals: 6,
        uiAmountString: "100",
      });
      const supply = await rpc.getTokenSupply(mint).send();
      expect(supply.value.amount).toBe("100000000");

      const tx = await signed(payer, [
        getCreateAssociatedTokenIdempotentInstruction({ payer, ata: recipientAta, owner: recipient.address, mint }),
        transferTo(12_345_678n),
      ]);
      transferSignature = getSignatureFromTransaction(tx);
      const wire = getBase64EncodedWireTransaction(tx);
      expect(await rpc.sendTransaction(wire, { encoding: "base64" }).send()).toBe(transferSignature);

      const confirmed = await waitForStatus(transferSignature, "confirmed");
      expect(confirmed).toMatchObject({ err: null, status: { Ok: null } });
      expect(typeof confirmed!.confirmations).toBe("bigint");
      transferSlot = confirmed!.slot;
      // Not finalized yet: finalized reads (32 slots back) see neither the transaction nor its effects.
      expect(
        await rpc
          .getTransaction(transferSignature, {
            commitment: "finalized",
            maxSupportedTransactionVersion: 0,
            encoding: "json",
          })
          .send(),
      ).toBeNull();
      await expect(rpc.getTokenAccountBalance(recipientAta, { commitment: "finalized" }).send()).rejects.toThrow(
        /could not find account/,
      );
      const payerConfirmed = (await rpc.getBalance(payer.address, { commitment: "confirmed" }).send()).value;
      expect((await rpc.getBalance(payer.address, { commitment: "finalized" }).send()).value).not.toBe(payerConfirmed);

      const got = await rpc
        .getTransaction(transferSignature, {
          commitment: "confirmed",
          maxSupportedTransactionVersion: 0,
          encoding: "json",
        })
        .send();
      expect(got!.slot).toBe(transferSlot);
      expect(got!.version).toBe(0);
      expect(Math.abs(Number(got!.blockTime) - Date.now() / 1000)).toBeLessThan(10);
      const meta = got!.meta!;
      expect(meta.err).toBeNull();
      expect(meta.fee).toBe(5000n);
      const keys = got!.transaction.message.accountKeys;
      expect(keys[0]).toBe(payer.address);
      expect(meta.preBalances[0]! - meta.postBalances[0]!).toBe(5000n + ATA_RENT);
      const pre = Object.fromEntries(meta.preTokenBalances!.map((b) => [keys[Number(b.accountIndex)], b]));
      const post = Object.fromEntries(meta.postTokenBalances!.map((b) => [keys[Number(b.accountIndex)], b]));
      expect(pre[payerAta]).toMatchObject({
        mint,
        owner: payer.address,
        programId: TOKEN_PROGRAM_ADDRESS,
        uiTokenAmount: { amount: "100000000", uiAmountString: "100" },
      });
      expect(pre[recipientAta]).toBeUndefined(); // did not exist before this transaction
      expect(post[payerAta]!.uiTokenAmount).toMatchObject({
        amount: "87654322",
        decimals: 6,
        uiAmountString: "87.654322",
      });
      expect(post[recipientAta]).toMatchObject({
        owner: recipient.address,
        uiTokenAmount: { amount: "12345678", uiAmountString: "12.345678" },
      });
      expect(meta.logMessages).toContain(`Program ${TOKEN_PROGRAM_ADDRESS} invoke [1]`);
      expect(meta.logMessages!.at(-1)).toBe(`Program ${TOKEN_PROGRAM_ADDRESS} success`);

      const asBase64 = await rpc
        .getTransaction(transferSignature, { maxSupportedTransactionVersion: 0, encoding: "base64" })
        .send();
      expect(asBase64!.transaction).toEqual([wire, "base64"]);
      await expect(rpc.getTransaction(transferSignature, { encoding: "json" }).send()).rejects.toSatisfy((e) =>
        isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION),
      );

      // The token views agree with the transaction's post balances.
      expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12345678");
      expect((await fetchToken(rpc, recipientAta)).data).toMatchObject({
        mint,
        owner: recipient.address,
        amount: 12_345_678n,
      });
      const byMint = await rpc.getTokenAccountsByOwner(recipient.address, { mint }, { encoding: "jsonParsed" }).send();
      expect(byMint.value).toHaveLength(1);
      expect(byMint.value[0]!.pubkey).toBe(recipientAta);
      expect(byMint.value[0]!.account.data.parsed.info).toMatchObject({
        mint,
        owner: recipient.address,
        state: "initialized",
        tokenAmount: { amount: "12345678" },
      });
      const byProgram = await rpc
        .getTokenAccountsByOwner(payer.address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: "base64" })
        .send();
      expect(byProgram.value.map((a) => a.pubkey)).toEqual([payerAta]);
      expect(getTokenDecoder().decode(getBase64Encoder().encode(byProgram.value[0]!.account.data[0])).amount).toBe(
        87_654_322n,
      );
      const nobody = await generateKeyPairSigner();
      const many = await rpc
        .getMultipleAccounts([payerAta, recipientAta, nobody.address], { encoding: "base64" })
        .send();
      expect(many.value[2]).toBeNull();
      expect(
        many.value.slice(0, 2).map((a) => getTokenDecoder().decode(getBase64Encoder().encode(a!.data[0])).amount),
      ).toEqual([87_654_322n, 12_345_678n]);
      expect(many.value[0]!.owner).toBe(TOKEN_PROGRAM_ADDRESS);

      // Signature history, newest first, with before/until/limit.
      const forRecipient = await rpc.getSignaturesForAddress(recipientAta).send();
      expect(forRecipient.map((s) => s.signature)).toEqual([transferSignature]);
      expect(forRecipient[0]).toMatchObject({ slot: transferSlot, err: null, memo: null });
      const forPayer = await rpc.getSignaturesForAddress(payerAta).send();
      expect(forPayer.map((s) => s.signature)).toEqual([transferSignature, fundSignature]);
      expect((await rpc.getSignaturesForAddress(payerAta, { limit: 1 }).send()).map((s) => s.signature)).toEqual([
        transferSignature,
      ]);
      expect(
        (await rpc.getSignaturesForAddress(payerAta, { before: transferSignature }).send()).map((s) => s.signature),
      ).toEqual([fundSignature]);
      expect(
        (await rpc.getSignaturesForAddress(payerAta, { until: fundSignature }).send()).map((s) => s.signature),
      ).toEqual([transferSignature]);

      const block = await rpc
        .getBlock(transferSlot, { maxSupportedTransactionVersion: 0, transactionDetails: "signatures" })
        .send();
      expect(block!.signatures).toContain(transferSignature);
      const parsedBlock = await rpc
        .getBlock(transferSlot, { maxSupportedTransactionVersion: 0, encoding: "jsonParsed", rewards: false })
        .send();
      const inBlock = parsedBlock!.transactions.find((t) => t.transaction.signatures[0] === transferSignature)!;
      expect(parsedBlock!.parentSlot).toBe(transferSlot - 1n);
      expect(inBlock.transaction.message.instructions[1]).toMatchObject({
        program: "spl-token",
        parsed: {
          type: "transferChecked",
          info: {
            source: payerAta,
            destination: recipientAta,
            mint,
            authority: payer.address,
            tokenAmount: { amount: "12345678", decimals: 6n },
          },
        },
      });
      expect(
        inBlock
          .meta!.innerInstructions!.flatMap((g) => g.instructions)
          .map((ix) => ("parsed" in ix ? ix.parsed.type : "?")),
      ).toContain("initializeAccount3");
      expect(await rpc.getBlockTime(transferSlot).send()).toBe(got!.blockTime);

      // Finality: 32 slots later the status turns finalized and finalized reads see the transaction.
      const finalized = await waitForStatus(transferSignature, "finalized");
      expect(finalized!.confirmations).toBeNull();
      expect(
        (await rpc
          .getTransaction(transferSignature, {
            commitment: "finalized",
            maxSupportedTransactionVersion: 0,
            encoding: "json",
          })
          .send())!.slot,
      ).toBe(transferSlot);
      expect((await rpc.getTokenAccountBalance(recipientAta, { commitment: "finalized" }).send()).value.amount).toBe(
        "12345678",
      );
      expect((await rpc.getBalance(payer.address, { commitment: "finalized" }).send()).value).toBe(payerConfirmed);
    },
  );

  it(
    "answers a batch from one bank: finalized trails confirmed by 32 slots, " + "and blockhashes live 150 slots",
    async () => {
      sandbox.advanceSlots(40); // past the first 32 slots, where finalized is pinned at 0
      const response = await fetch(sandbox.info.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify([
          { jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] },
          { jsonrpc: "2.0", id: 2, method: "getSlot", params: [{ commitment: "finalized" }] },
          { jsonrpc: "2.0", id: 3, method: "getLatestBlockhash", params: [{ commitment: "confirmed" }] },
          { jsonrpc: "2.0", id: 4, method: "noSuchMethod", params: [] },
        ]),
      });
      const [confirmed, finalized, latest, unknown] = await response.json();
      expect(confirmed.result - finalized.result).toBe(32);
      expect(latest.result.context.slot).toBe(confirmed.result);
      expect(latest.result.value.lastValidBlockHeight).toBe(confirmed.result + 150);
      expect(unknown.error.code).toBe(-32601);

      // The slot timer keeps ticking between calls, so the checks leave it room: still valid after 140 more
      // slots, refused once at least 151 have passed (the exact boundary is the refusal test's).
      const blockhash = latest.result.value.blockhash;
      sandbox.advanceSlots(140);
      expect((await raw("isBlockhashValid", [blockhash, { commitment: "confirmed" }])).result.value).toBe(true);
      sandbox.advanceSlots(11);
      expect((await raw("isBlockhashValid", [blockhash, { commitment: "confirmed" }])).result.value).toBe(false);
    },
  );

  it(
    "refuses a corrupted signature, a blockhash older than 150 slots and a duplicate, " + "with the node's errors",
    async () => {
      // Corrupted signature.
      const good = await signed(payer, [transferTo(1n)]);
      const bytes = Buffer.from(getBase64EncodedWireTransaction(good), "base64");
      bytes[10]! ^= 0xff;
      const corrupted = bytes.toString("base64");
      expect((await raw("sendTransaction", [corrupted, { encoding: "base64" }])).error).toEqual({
        code: -32003,
        message: "Transaction signature verification failure",
      });
      await expect(rpc.sendTransaction(corrupted as never, { encoding: "base64" }).send()).rejects.toSatisfy((e) =>
        isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE),
      );

      // Stale blockhash.
      const stale = await signed(payer, [transferTo(2n)]);
      sandbox.advanceSlots(151);
      const staleError = (
        await raw("sendTransaction", [getBase64EncodedWireTransaction(stale), { encoding: "base64" }])
      ).error!;
      expect(staleError.code).toBe(-32002);
      expect(staleError.message).toBe("Transaction simulation failed: Blockhash not found");
      expect(staleError.data.err).toBe("BlockhashNotFound");
      await expect(
        rpc.sendTransaction(getBase64EncodedWireTransaction(stale), { encoding: "base64" }).send(),
      ).rejects.toSatisfy(
        (e) =>
          isSolanaError(e, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE) &&
          isSolanaError(e.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND),
      );

      // Duplicate: accepted once, refused (preflight) or dropped (skipPreflight) after that.
      const once = await signed(payer, [transferTo(3n)]);
      const onceWire = getBase64EncodedWireTransaction(once);
      await rpc.sendTransaction(onceWire, { encoding: "base64" }).send();
      const duplicate = (await raw("sendTransaction", [onceWire, { encoding: "base64" }])).error!;
      expect(duplicate).toMatchObject({
        code: -32002,
        message: "Transaction simulation failed: This transaction has already been processed",
        data: { err: "AlreadyProcessed" },
      });
      await expect(rpc.sendTransaction(onceWire, { encoding: "base64" }).send()).rejects.toSatisfy((e) =>
        isSolanaError(e.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED),
      );
      expect(await rpc.sendTransaction(onceWire, { encoding: "base64", skipPreflight: true }).send()).toBe(
        getSignatureFromTransaction(once),
      );
      // Only the first copy moved tokens (12,345,678 + 3) and nothing else landed for the refused ones: read once
      // its slot is complete (`confirmed` reads the last complete slot, as on a cluster).
      await waitForStatus(getSignatureFromTransaction(once), "confirmed");
      expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12345681");
      expect(
        (await rpc.getSignatureStatuses([getSignatureFromTransaction(good), getSignatureFromTransaction(stale)]).send())
          .value,
      ).toEqual([null, null]);
    },
  );

  it(
    "records a failing transfer with its program error under skipPreflight, " + "and refuses it with preflight",
    async () => {
      const tooMuch = await signed(payer, [transferTo(1_000_000_000n)]);
      const wire = getBase64EncodedWireTransaction(tooMuch);
      const refused = (await raw("sendTransaction", [wire, { encoding: "base64" }])).error!;
      expect(refused.code).toBe(-32002);
      expect(refused.message).toBe(
        "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
      );
      expect(refused.data.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
      expect(refused.data.logs.length).toBeGreaterThan(0);
      await expect(rpc.sendTransaction(wire, { encoding: "base64" }).send()).rejects.toSatisfy((e) =>
        isSolanaError(e.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM),
      );

      const before = (await rpc.getBalance(payer.address).send()).value;
      const signature = await rpc.sendTransaction(wire, { encoding: "base64", skipPreflight: true }).send();
      const status = await waitForStatus(signature, "confirmed");
      expect(status!.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
      const got = await rpc.getTransaction(signature, { maxSupportedTransactionVersion: 0, encoding: "json" }).send();
      expect(got!.meta!.status).toEqual({ Err: { InstructionError: [0n, { Custom: 1n }] } });
      expect((await rpc.getBalance(payer.address).send()).value).toBe(before - 5000n); // the fee is still charged
      expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12345681");
    },
  );

  it("serves identical faucet requests made in the same slot as separate transactions", async () => {
    const someone = await generateKeyPairSigner();
    // Sequential: kit coalesces identical requests that are in flight together into one.
    const a = await rpc.requestAirdrop(someone.address, lamports(SOL)).send();
    const b = await rpc.requestAirdrop(someone.address, lamports(SOL)).send();
    expect(a).not.toBe(b);
    const secret = readSolanaSandboxSecret(dataDir);
    const funded = await Promise.all(
      [1, 2].map(() => fundSolanaAddress(sandbox.info, secret, someone.address, { usdtUnits: 5n })),
    );
    expect(funded[0]!.signature).not.toBe(funded[1]!.signature);
    expect((await rpc.getBalance(someone.address).send()).value).toBe(2n * SOL);
    const [ata] = await findAssociatedTokenPda({ owner: someone.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect((await rpc.getTokenAccountBalance(ata).send()).value.amount).toBe("10");
  });

  it("comes back after stop() with the same port, mint, balances and transaction history", async () => {
    const { rpcUrl } = sandbox.info;
    const slotBefore = await rpc.getSlot({ commitment: "confirmed" }).send();
    const payerLamports = (await rpc.getBalance(payer.address).send()).value;
    const supply = (await rpc.getTokenSupply(mint).send()).value.amount;
    expect(supply).toBe("100000010");
    await sandbox.stop();

    sandbox = await startSolanaSandbox({ dataDir, slotMs: 100 });
    rpc = createSolanaRpc(sandbox.info.rpcUrl);
    expect(sandbox.info.rpcUrl).toBe(rpcUrl);
    expect(sandbox.info.mint).toBe(mint);
    expect(await rpc.getSlot({ commitment: "confirmed" }).send()).toBeGreaterThanOrEqual(slotBefore);
    expect((await rpc.getBalance(payer.address).send()).value).toBe(payerLamports);
    expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12345681");
    expect((await rpc.getTokenSupply(mint).send()).value.amount).toBe(supply);
    const again = await rpc
      .getTransaction(transferSignature, { maxSupportedTransactionVersion: 0, encoding: "json" })
      .send();
    expect(again!.slot).toBe(transferSlot);
    expect(again!.meta!.postTokenBalances!.map((b) => b.uiTokenAmount.amount).sort()).toEqual(["12345678", "87654322"]);
    // later transfers are newer
    expect((await rpc.getSignaturesForAddress(recipientAta).send())[0]!.signature).not.toBe(transferSignature);

    // The restored accounts are live LiteSVM state: a new transfer and a new funding both work.
    // Sent base58-encoded this time (the RPC's default encoding).
    const next = await signed(payer, [
      transferTo(19n),
      getTransferSolInstruction({ source: payer, destination: recipient.address, amount: SOL / 10n }),
    ]);
    await rpc.sendTransaction(getBase58Decoder().decode(getTransactionEncoder().encode(next)) as never).send();
    await waitForStatus(getSignatureFromTransaction(next), "confirmed");
    expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12345700");
    expect((await rpc.getBalance(recipient.address).send()).value).toBe(SOL / 10n);
    await fundSolanaAddress(sandbox.info, readSolanaSandboxSecret(dataDir), recipient.address, { usdtUnits: 300n });
    expect((await rpc.getTokenAccountBalance(recipientAta).send()).value.amount).toBe("12346000");
  });
});
