// `npm run bench:pages`: first-load JavaScript (gzip) of the hosted pages from the production build — what
// a payer's browser downloads before the page is interactive, wallet libraries excluded (they load only
// when asked) — and, with BENCH_LIGHTHOUSE=1 and the `lighthouse` package present, Lighthouse scores.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { registerSandboxChain } from "@/lib/chains/register-sandbox-chain";
import { closeDb, getDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { createPayment } from "@/lib/payments/create-payment";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createTestDatabase } from "@/tests/setup/test-database";

const root = path.resolve(import.meta.dirname, "..");
ensureNextBuild(root);
const database = await createTestDatabase(root);
await migrateDatabase(database.url);
const env = { DATABASE_URL: database.url, MASTER_KEY: randomBytes(32).toString("base64"), LOG_LEVEL: "error" };
Object.assign(process.env, env);

/**
 * Scripts the HTML loads (script tags and script preloads; not `noModule` polyfills, which modern
 * browsers skip), fetched and gzipped one by one.
 */
async function firstLoadJs(base: string, pagePath: string): Promise<{ files: number; rawKb: number; gzipKb: number }> {
  const html = await (await fetch(base + pagePath)).text();
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!).filter((attrs) => !/nomodule/i.test(attrs));
  const srcs = new Set([...scripts.join("\n").matchAll(/src="([^"]+)"/g), ...html.matchAll(/<link[^>]+rel="preload"[^>]+as="script"[^>]+href="([^"]+)"/g), ...html.matchAll(/<link[^>]+href="([^"]+\.js)"[^>]+as="script"/g)].map((m) => m[1]!));
  let raw = 0;
  let gz = 0;
  for (const src of srcs) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  // The inline RSC payload is part of the HTML, not of the JavaScript bundle.
  return { files: srcs.size, rawKb: raw / 1024, gzipKb: gz / 1024 };
}

try {
  // The pages read chain configuration from the sandbox registry; no chain needs to run for this.
  await registerSandboxChain(getDb(), { chain: "eth", rpcUrl: "http://127.0.0.1:1", chainId: 900001, tokenAddress: "0x5fbdb2315678afecb367f032d93f642f64180aa3", decimals: 6, blockTimeMs: 1000, emulated: false });
  const { merchant } = await createMerchant(getDb(), { name: "Bench Café", email: "bench@example.com" });
  const owner = { merchantId: merchant.id, mode: "sandbox" as const };
  const payment = await createPayment(getDb(), owner, { amount: 12_500_000n, chain: "eth", description: "Two espressos" });
  const agnostic = await createPayment(getDb(), owner, { amount: 12_500_000n });
  const link = await createPaymentLink(getDb(), owner, { amount: 25_000_000n, description: "Concert ticket" });
  const web = await spawnWebServer(root, env);
  try {
    console.log("first-load JavaScript of the hosted pages (production build; target ≤ 200 KB gzip, wallet libraries excluded)");
    for (const [name, p] of [
      ["/checkout/<id> (network chosen)", `/checkout/${payment.id}`],
      ["/checkout/<id> (network picker)", `/checkout/${agnostic.id}`],
      ["/pay/<token>", `/pay/${link.token}`],
    ] as const) {
      const f = await firstLoadJs(web.url, p);
      console.log(`  ${name.padEnd(34)} ${f.files} scripts, ${f.rawKb.toFixed(1)} KB raw, ${f.gzipKb.toFixed(1)} KB gzip`);
    }
  } finally {
    await web.stop();
  }
} finally {
  await closeDb();
  await database.drop();
}
process.exit(0);
