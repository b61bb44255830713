import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createPublicClient, http, parseAbiItem, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  cliOn,
  expectEachOnce,
  expectLedgerConsistent,
  healthShows,
  hooked,
  killPostmaster,
  type Service,
  startService,
  until,
} from "../helpers/started-service";
import { startReceiver } from "../helpers/webhook-receiver";

// A killed PostgreSQL must not stop money silently. Under `npm start` (embedded database, sandbox chains) the
// postmaster is SIGKILLed twice while payments are created and their webhooks delivered and payouts are swept
// for, signed, sent and confirmed. The supervisor starts it again, /api/health says what is down meanwhile,
// and web and worker carry on without a manual step; clients keep asking during each outage (retrying with
// their Idempotency-Keys). Afterwards: every payment once, every payout confirmed with exactly one transfer
// of its amount on chain, each event once and delivered, `ledger check` and `reconcile` clean on every chain.

type Received = Awaited<ReturnType<typeof startReceiver>>;
interface WebhookEvent {
  id: string;
  type: string;
  data: { object: { id: string; status: string; tx_hash: string | null } };
}

const events = (receiver: Received) => receiver.at("/hook").map((r) => JSON.parse(r.body) as WebhookEvent);
const confirmedPayouts = (receiver: Received) =>
  new Set(
    events(receiver)
      .filter((e) => e.type === "payout.confirmed")
      .map((e) => e.data.object.id),
  );

/** The eth sandbox chain as `npm start` printed it: its RPC URL and USDT contract. */
function ethChain(service: Service) {
  const line = /Sandbox:\s+eth\s+(\S+)\s+chain id \d+, USDT (0x[0-9a-fA-F]{40}) \((\d+) decimals\)/.exec(service.out());
  if (!line) throw new Error(`no eth sandbox chain in:\n${service.out()}`);
  const client = createPublicClient({ transport: http(line[1]) });
  const token = line[2] as Address;
  return {
    decimals: Number(line[3]),
    /** USDT Transfer logs into `to`: the transfers that really landed, and what they carried. */
    transfersTo: async (to: string) =>
      (
        await client.getLogs({
          address: token,
          event: parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)"),
          args: { to: to as Address },
          fromBlock: 0n,
        })
      ).map((l) => l.args.value),
  };
}

/** The job queue as the embedded database holds it (what a stall waits on). */
async function jobsOf(dataDir: string): Promise<string> {
  const { port, password } = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8"));
  const client = new pg.Client(`postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/usdt_payments`);
  await client.connect();
  try {
    const { rows } = await client.query(
      `select id, task_identifier, run_at, attempts, locked_by, locked_at, last_error is not null as failed
         from graphile_worker.jobs order by id`,
    );
    const { rows: runners } = await client.query("select worker_id, process, heartbeat_at from job_runners");
    return JSON.stringify({ now: new Date(), jobs: rows, runners }, null, 1);
  } finally {
    await client.end();
  }
}

const recipient = () => privateKeyToAccount(generatePrivateKey()).address;

describe("a database killed under npm start", () => {
  it("embedded: started again; payments, webhooks and payouts ride it out; " +
    "health names it meanwhile; nothing lost or doubled", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-dbkill-"));
    const receiver = await startReceiver();
    const service = await startService(dataDir, undefined, {
      SANDBOX_CHAINS: "on",
      SANDBOX_BLOCK_TIME: "0.5",
      LOG_LEVEL: "info", // what the worker did, should this fail
    });
    try {
      await service.create("/v1/webhooks", { url: receiver.url("/hook") });
      // The merchant's balance: one payment on eth, paid by the sandbox and confirmed.
      const payment = await service.create("/v1/payments", { amount: "20.000000", chain: "eth" });
      await service.create(`/v1/sandbox/payments/${payment.id}/simulate`, {});
      await until(
        "the payment's confirmation",
        async () => events(receiver).some((e) => e.type === "payment.confirmed" && e.data.object.id === payment.id),
        120_000,
      );

      // Four payouts, then the database killed while they go through (the treasury is empty: each waits for the
      // sweep it asks for, then is signed, sent and confirmed); one more asked for during each outage.
      const planned = new Map<string, string>(); // payout id → recipient
      const payout = async () => {
        const to = recipient();
        planned.set((await service.create("/v1/payouts", { chain: "eth", to_address: to, amount: "1.000000" })).id, to);
      };
      for (let i = 0; i < 4; i++) await payout();
      expect(await service.health()).toMatchObject({
        status: 200,
        body: {
          ok: true,
          database: "up",
          processes: { database: { state: "up" }, web: { state: "up" }, worker: { state: "up" } },
        },
      });
      const payments = [payment.id];
      for (const round of [1, 2]) {
        killPostmaster(path.join(dataDir, "postgres"));
        const down = await healthShows(
          service,
          "the database restarting",
          (b) => b.processes.database?.state === "restarting",
        );
        expect(down.body.ok).toBe(false);
        // Clients keep trying meanwhile; then everything answers again, on its own.
        const during = Promise.all([service.createPayment(`during-${round}`), payout()]);
        await until(`round ${round}: health ok again`, async () => (await service.health()).status === 200, 90_000);
        payments.push((await during)[0]);
        payments.push(await service.createPayment(`after-${round}`));
      }
      for (const id of payments) await hooked(receiver, id);
      await expectEachOnce(service, payments);
      await until(
        "every payout confirmed (payout.confirmed delivered)",
        async () => [...planned.keys()].every((id) => confirmedPayouts(receiver).has(id)),
        180_000,
      ).catch(async (err) => {
        const now = await (await service.call("GET", "/v1/payouts?limit=100")).text();
        // The service's own account of it, without the requests refused while the database was down.
        const said = service
          .out()
          .split("\n")
          .filter((line) => !line.includes("unhandled error in API request"))
          .slice(-60)
          .join("\n");
        const full = path.join(os.tmpdir(), `dbkill-payouts-${process.pid}.log`);
        fs.writeFileSync(full, `${service.out()}\n\njobs:\n${await jobsOf(dataDir)}`);
        throw new Error(`${(err as Error).message}\npayouts: ${now}\n${said}\n(the service's whole output: ${full})`);
      });

      // Every payout once, confirmed, with exactly one transfer of exactly its amount to its recipient.
      const listed = (await (await service.call("GET", "/v1/payouts?limit=100")).json()) as {
        data: { id: string; status: string; to_address: string; tx_hash: string }[];
      };
      expect(listed.data.map((p) => [p.id, p.status, p.to_address]).sort()).toEqual(
        [...planned].map(([id, to]) => [id, "confirmed", to]).sort(),
      );
      const eth = ethChain(service);
      for (const to of planned.values())
        expect({ to, transfers: await eth.transfersTo(to) }).toEqual({ to, transfers: [10n ** BigInt(eth.decimals)] });
      // Each event exists once, and every one reached the endpoint.
      const stored = (await (await service.call("GET", "/v1/events?limit=100")).json()) as {
        data: { id: string; type: string; data: { object: { id: string } } }[];
      };
      const keyOf = (e: { type: string; data: { object: { id: string } } }) => `${e.type} ${e.data.object.id}`;
      const eventKeys = stored.data.map(keyOf);
      expect(eventKeys.filter((k) => k.startsWith("payout.confirmed")).sort()).toEqual(
        [...planned.keys()].map((id) => `payout.confirmed ${id}`).sort(),
      );
      expect(new Set(eventKeys).size).toBe(eventKeys.length);
      const delivered = new Set(events(receiver).map((e) => e.id));
      expect(stored.data.filter((e) => !delivered.has(e.id)).map(keyOf)).toEqual([]);

      // The operator's books, read from the same embedded database through the CLI.
      await expectLedgerConsistent(dataDir);
      // Every chain, not only the one the payouts used: nothing the restarts touched is off anywhere.
      const reconcile = await cliOn(dataDir, ["reconcile", "--mode", "sandbox", "--json"]);
      expect(reconcile.code, reconcile.stdout + reconcile.stderr).toBe(0);
      const reports = JSON.parse(reconcile.stdout).chains as {
        chain: string;
        usdt: { unmatched: string; difference: string };
      }[];
      expect(reports.map((r) => [r.chain, r.usdt.unmatched, r.usdt.difference]).sort()).toEqual(
        ["bnb", "eth", "polygon", "solana", "tron"].map((c) => [c, "0.000000", "0.000000"]),
      );
      expect(service.out()).toContain("[database] PostgreSQL stopped answering");
      expect(service.out()).not.toContain("giving up");
    } finally {
      await service.stop();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 420_000);
});
