import { Agent, setGlobalDispatcher } from "undici";
import { afterAll, inject } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { closeDb } from "@/lib/platform/db/client";

// The suite runs its files without isolation (vitest.config.ts): the files of one worker share this process and
// its modules. Each starts from the environment the worker started with and reads its configuration afresh, so
// a file that sets LIVE_SEED_MNEMONIC (say) leaves nothing behind for the next.
const shared = globalThis as { __workerEnv?: NodeJS.ProcessEnv };
shared.__workerEnv ??= { ...process.env };
for (const name of Object.keys(process.env)) if (!(name in shared.__workerEnv)) delete process.env[name];
Object.assign(process.env, shared.__workerEnv);
resetConfig();

// Test files call domain functions in-process against the run's database, as the web/worker/CLI do.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.REDIS_KEY_PREFIX = inject("redisKeyPrefix");
process.env.MASTER_KEY = inject("masterKey");
process.env.LOG_LEVEL ??= "warn";

// The web server keeps an idle connection 65 s (longer than a load balancer's 60 s); fetch keeps one until that
// hint less 2 s, on a timer that fires late under load. A file run a minute after the last request of another
// could send on a connection the server was closing at that moment ("other side closed", seen once in CI):
// here, as a well-behaved client does, the pool lets idle connections go long before the server does.
const fetchPool = globalThis as { __fetchPool?: Agent };
fetchPool.__fetchPool ??= new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 });
setGlobalDispatcher(fetchPool.__fetchPool); // once per worker: each file reuses its connections

afterAll(async () => {
  await closeDb();
});
