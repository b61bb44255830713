// `npm run bench:drivers`: the database driver for the /v1 write path, chosen by measurement. Each case runs
// the statements of an idempotent POST's transaction (claim the key, insert the resource, store the
// response) from BENCH_CONCURRENCY (16) concurrent callers for BENCH_SECONDS (10) on a fresh database, and
// prints transactions per second, p50/p99 latency, this process's CPU per transaction, and the round trips
// each transaction waits for:
//   node-postgres, one statement at a time (BEGIN, claim, insert, store, COMMIT: 5 round trips);
//   node-postgres with `pipeline: true`, as the web runs it (BEGIN + claim, insert + store + COMMIT: 2);
//   postgres.js (porsager/postgres), which pipelines what is sent without awaiting, but sends BEGIN and COMMIT
//   on their own (BEGIN, claim, insert + store, COMMIT: 4).
import path from "node:path";
import pg from "pg";
import postgres from "postgres";
import { createTestDatabase } from "@/tests/setup/test-database";

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const root = path.resolve(import.meta.dirname, "..");

const SCHEMA = `
create table keys (owner text, key text, hash text, status int, body text, primary key (owner, key));
create table resources (id text primary key, owner text, amount bigint, created_at timestamptz);`;
const CLAIM = `insert into keys (owner, key, hash) values ($1, $2, $3) on conflict do nothing returning key`;
const INSERT = `insert into resources (id, owner, amount, created_at) values ($1, $2, $3, $4)`;
const STORE = `update keys set status = 200, body = $3 where owner = $1 and key = $2`;

interface Case {
  name: string;
  roundTrips: number;
  /** One idempotent write; `n` makes its key and resource id unique. */
  write: (n: number) => Promise<void>;
  close: () => Promise<void>;
}

const body = JSON.stringify({ id: "pl_x", object: "payment_link", amount: "25.500000", url: "https://x/pay/y" });

function nodePostgres(url: string, pipeline: boolean): Case {
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY, pipeline });
  return {
    name: pipeline ? "node-postgres, pipeline: true" : "node-postgres, sequential",
    roundTrips: pipeline ? 2 : 5,
    async write(n) {
      const client = await pool.connect();
      try {
        const key = `k${n}`;
        if (pipeline) {
          const begin = client.query("BEGIN");
          const claimed = await client.query(CLAIM, ["m", key, "h"]);
          await begin;
          if (!claimed.rowCount) throw new Error("claimed twice");
          await Promise.all([
            client.query(INSERT, [`r${n}`, "m", n, new Date()]),
            client.query(STORE, ["m", key, body]),
            client.query("COMMIT"),
          ]);
        } else {
          await client.query("BEGIN");
          const claimed = await client.query(CLAIM, ["m", key, "h"]);
          if (!claimed.rowCount) throw new Error("claimed twice");
          await client.query(INSERT, [`r${n}`, "m", n, new Date()]);
          await client.query(STORE, ["m", key, body]);
          await client.query("COMMIT");
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

function postgresJs(url: string): Case {
  const sql = postgres(url, { max: CONCURRENCY, onnotice: () => {} });
  return {
    name: "postgres.js",
    roundTrips: 4, // sql.begin awaits BEGIN before the callback and sends COMMIT after it
    async write(n) {
      const key = `k${n}`;
      await sql.begin(async (tx) => {
        const claimed = await tx.unsafe(CLAIM, ["m", key, "h"]);
        if (!claimed.count) throw new Error("claimed twice");
        await Promise.all([tx.unsafe(INSERT, [`r${n}`, "m", n, new Date()]), tx.unsafe(STORE, ["m", key, body])]);
      });
    },
    close: () => sql.end(),
  };
}

async function run(c: Case): Promise<string> {
  let n = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1_000;
  const cpu = process.cpuUsage();
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      await c.write(n++);
      latencies.push(performance.now() - start);
    }
  };
  // Warm the connections and the statements, then measure.
  for (let i = 0; i < CONCURRENCY * 4; i++) await c.write(1e9 + i);
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1_000;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]!;
  const rate = latencies.length / elapsed;
  const cpuMs = (used.user + used.system) / 1_000 / latencies.length;
  return [
    c.name.padEnd(32),
    rate.toFixed(0).padStart(8),
    at(50).toFixed(2).padStart(8),
    at(99).toFixed(2).padStart(8),
    cpuMs.toFixed(3).padStart(10),
    String(c.roundTrips).padStart(6),
  ].join(" ");
}

const database = await createTestDatabase(root);
try {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(SCHEMA);
  await admin.end();
  console.log(
    `bench:drivers: an idempotent write's transaction, ${CONCURRENCY} concurrent callers, ${SECONDS} s per case`,
  );
  console.log(
    `${"driver".padEnd(32)} ${"tx/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ` +
      `${"cpu ms/tx".padStart(10)} ${"trips".padStart(6)}`,
  );
  for (const make of [
    () => nodePostgres(database.url, false),
    () => nodePostgres(database.url, true),
    () => postgresJs(database.url),
  ]) {
    const reset = new pg.Client({ connectionString: database.url });
    await reset.connect();
    await reset.query("truncate keys, resources");
    await reset.end();
    const c = make();
    try {
      console.log(await run(c));
    } finally {
      await c.close();
    }
  }
} finally {
  await database.drop();
}
process.exit(0);
