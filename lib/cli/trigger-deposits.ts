import { ServiceError } from "./service-api";
import { depths, mine, sleep, type Triggered, type TriggerRun } from "./trigger-payments";

/** The fields of the API's deposit objects a trigger reads (docs/API.md#deposits). */
interface Deposit {
  id: string;
  status: string;
  amount: string;
  block_number: number;
}

/** A deposit address on the run's chain (no customer), then a 2 USDT sandbox transfer to it; the deposit once seen. */
async function sendDeposit(run: TriggerRun): Promise<{ address: string; deposit: Deposit }> {
  const address = await run.api.post<{ id: string; address: string }>("/v1/deposit_addresses", {
    chain: run.chain,
    metadata: { created_by: "npm run cli -- trigger" },
  });
  run.step(`deposit address ${address.id} created: ${address.address} on ${run.chain}`, {
    step: "deposit_address_created",
    deposit_address: address.id,
  });
  const sent = await run.api.post<{ tx_hash: string }>(`/v1/sandbox/deposit_addresses/${address.id}/simulate`, {
    amount: "2.000000",
  });
  run.step(`sent 2.000000 USDT: tx ${sent.tx_hash}`, { step: "sent", tx_hash: sent.tx_hash });
  const deposit = await waitForDeposit(run, address.id, (d) => Boolean(d), 1);
  return { address: address.id, deposit };
}

/** Polls the address's deposit (mining `blocks` every third poll) until `done`, for 90 s. */
async function waitForDeposit(
  run: TriggerRun,
  addressId: string,
  done: (d: Deposit | undefined) => boolean,
  blocks: number,
): Promise<Deposit> {
  const deadline = Date.now() + 90_000;
  for (let i = 0; ; i++) {
    if (i % 3 === 0 && blocks > 0) await mine(run, blocks);
    await sleep(1_500); // ~50 requests a minute with the mining: under the default 60 a minute
    const list = await run.api.get<{ data: Deposit[] }>(`/v1/deposits?deposit_address=${addressId}`);
    const deposit = list.data[0];
    if (deposit && done(deposit)) {
      run.step(`deposit ${deposit.id} is ${deposit.status}`, { step: "deposit_status", deposit: deposit.id });
      return deposit;
    }
    if (Date.now() > deadline)
      throw new ServiceError(
        `the deposit to ${addressId} is ${deposit?.status ?? "not seen"} after 90 s: ` +
          `is a worker watching ${run.chain} running? (npm start runs one)`,
      );
  }
}

export async function depositPending(run: TriggerRun): Promise<Triggered> {
  return { object: "deposit", id: (await sendDeposit(run)).deposit.id };
}

export async function depositConfirmed(run: TriggerRun): Promise<Triggered> {
  const { address, deposit } = await sendDeposit(run);
  const { required } = await depths(run);
  await waitForDeposit(run, address, (d) => d?.status === "confirmed", required);
  return { object: "deposit", id: deposit.id };
}

/** The deposit's block and every one after it replaced by a reorganization (scope sandbox:chains). */
export async function depositReversed(run: TriggerRun): Promise<Triggered> {
  const { address, deposit } = await sendDeposit(run);
  for (let tries = 0; tries < 5; tries++) {
    const { head } = await run.api.post<{ head: number }>(`/v1/sandbox/chains/${run.chain}/mine`, { blocks: 1 });
    const depth = head - deposit.block_number + 2;
    await run.api.post(`/v1/sandbox/chains/${run.chain}/reorg`, { depth });
    run.step(`reorganized the last ${depth} blocks of ${run.chain}`, { step: "reorganized", depth });
    const list = await run.api.get<{ data: Deposit[] }>(`/v1/deposits?deposit_address=${address}`);
    for (let i = 0; i < 10 && list.data[0]?.status !== "reversed"; i++) {
      await sleep(1_500);
      list.data = (await run.api.get<{ data: Deposit[] }>(`/v1/deposits?deposit_address=${address}`)).data;
    }
    if (list.data[0]?.status === "reversed") {
      run.step(`deposit ${deposit.id} is reversed`, { step: "deposit_status", deposit: deposit.id });
      return { object: "deposit", id: deposit.id };
    }
  }
  throw new ServiceError(`deposit ${deposit.id} was not reversed after five reorganizations`);
}
