// `npm run bench:pages`: first-load JavaScript (gzip) of the hosted pages and of the dashboard's home and
// payments list (signed in) from the production build — what a browser downloads before the page is
// interactive, wallet libraries excluded (they load only when asked) — and Lighthouse's performance and
// accessibility scores (mobile preset, Debian's Chromium, median of BENCH_LIGHTHOUSE_RUNS=3;
// BENCH_LIGHTHOUSE=0 skips them).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import { closeDb, getDb } from "@/lib/platform/db/client";
import { migrateDatabase } from "@/lib/platform/db/migrate";
import { createPaymentLink } from "@/lib/money-in/payment-links/create-payment-link";
import { createPayment } from "@/lib/money-in/payments/create-payment";
import { offlineEthMerchant } from "./lib/offline-chain";
import { ensureNextBuild } from "@/scripts/lib/ensure-build";
import { spawnWebServer } from "@/scripts/lib/spawn-web";
import { createUser } from "@/lib/identity/users/create-user";
import { sessionCookie, signInOverHttp } from "@/tests/helpers/dashboard-http";
import { createTestDatabase } from "@/tests/setup/test-database";
import { fillAddressPool } from "./lib/address-pools";

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
async function firstLoadJs(
  base: string,
  pagePath: string,
  headers: Record<string, string> = {},
): Promise<{ files: number; rawKb: number; gzipKb: number }> {
  const res = await fetch(base + pagePath, { headers, redirect: "manual" });
  if (res.status !== 200) throw new Error(`${pagePath}: HTTP ${res.status}`);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!).filter((attrs) => !/nomodule/i.test(attrs));
  const srcs = new Set(
    [
      ...scripts.join("\n").matchAll(/src="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+rel="preload"[^>]+as="script"[^>]+href="([^"]+)"/g),
      ...html.matchAll(/<link[^>]+href="([^"]+\.js)"[^>]+as="script"/g),
    ].map((m) => m[1]!),
  );
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

/**
 * Lighthouse (mobile preset) against a page: median performance
 * and accessibility scores, and the metrics of the median run.
 */
function lighthouse(
  url: string,
  runs: number,
  headers: Record<string, string> = {},
): { performance: number; accessibility: number; detail: string } {
  const results: { performance: number; accessibility: number; detail: string }[] = [];
  for (let i = 0; i < runs; i++) {
    const out = path.join(os.tmpdir(), `lh-${process.pid}-${i}.json`);
    spawnSync(
      path.join(root, "node_modules", ".bin", "lighthouse"),
      [
        url,
        "--quiet",
        "--output=json",
        `--output-path=${out}`,
        "--only-categories=performance,accessibility",
        ...(Object.keys(headers).length ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-background-networking " +
          "--disable-component-update --no-first-run",
      ],
      {
        env: { ...process.env, CHROME_PATH: "/usr/bin/chromium" },
        stdio: "ignore",
      },
    );
    const report = JSON.parse(fs.readFileSync(out, "utf8")) as {
      finalDisplayedUrl: string;
      categories: Record<string, { score: number }>;
      audits: Record<string, { displayValue?: string }>;
    };
    fs.rmSync(out, { force: true });
    // A dashboard page without its session would measure the sign-in page instead.
    if (new URL(report.finalDisplayedUrl).pathname !== new URL(url).pathname)
      throw new Error(`${url} ended at ${report.finalDisplayedUrl}`);
    const a = report.audits;
    results.push({
      performance: Math.round(report.categories.performance!.score * 100),
      accessibility: Math.round(report.categories.accessibility!.score * 100),
      detail:
        `FCP ${a["first-contentful-paint"]!.displayValue}, LCP ${a["largest-contentful-paint"]!.displayValue}, ` +
        `TBT ${a["total-blocking-time"]!.displayValue}, CLS ${a["cumulative-layout-shift"]!.displayValue}`,
    });
  }
  results.sort((x, y) => x.performance - y.performance);
  return results[Math.floor(results.length / 2)]!;
}

try {
  const { merchant, owner } = await offlineEthMerchant();
  await fillAddressPool("evm", 30);
  const payment = await createPayment(getDb(), owner, {
    amount: 12_500_000n,
    chain: "eth",
    description: "Two espressos",
  });
  const agnostic = await createPayment(getDb(), owner, { amount: 12_500_000n });
  const link = await createPaymentLink(getDb(), owner, { amount: 25_000_000n, description: "Concert ticket" });
  // The dashboard's pages as a signed-in owner sees them, with a page of payments to list.
  for (let i = 0; i < 25; i++)
    await createPayment(getDb(), owner, { amount: BigInt(1_000_000 + i), chain: "eth", description: `Order ${i}` });
  const { password } = await createUser(getDb(), { merchantId: merchant.id, email: "bench@shop.test", role: "owner" });
  const web = await spawnWebServer(root, env);
  const cookie = sessionCookie(await signInOverHttp(web.url, { email: "bench@shop.test", password }));
  if (!cookie) throw new Error("the bench user could not sign in");
  const signedIn = { cookie };
  const pages: [string, string, Record<string, string>][] = [
    ["/checkout/<id> (network chosen)", `/checkout/${payment.id}`, {}],
    ["/checkout/<id> (network picker)", `/checkout/${agnostic.id}`, {}],
    ["/pay/<token>", `/pay/${link.token}`, {}],
    ["/dashboard (home)", "/dashboard", signedIn],
    ["/dashboard/payments", "/dashboard/payments", signedIn],
  ];
  try {
    console.log("first-load JavaScript (production build; target ≤ 200 KB gzip, wallet libraries excluded)");
    for (const [name, p, headers] of pages) {
      const f = await firstLoadJs(web.url, p, headers);
      console.log(
        `  ${name.padEnd(34)} ${f.files} scripts, ${f.rawKb.toFixed(1)} KB raw, ${f.gzipKb.toFixed(1)} KB gzip`,
      );
    }
    if (process.env.BENCH_LIGHTHOUSE !== "0" && fs.existsSync(path.join(root, "node_modules", ".bin", "lighthouse"))) {
      const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS || 3);
      console.log(
        `Lighthouse, mobile preset (4× CPU slowdown, slow 4G), Debian Chromium, median of ${runs} (target ≥ 90)`,
      );
      for (const [name, p, headers] of pages.filter(([n]) => !n.includes("picker"))) {
        const r = lighthouse(`${web.url}${p}`, runs, headers);
        console.log(
          `  ${name.padEnd(32)} performance ${r.performance}, accessibility ${r.accessibility}  (${r.detail})`,
        );
      }
    }
  } finally {
    await web.stop();
  }
} finally {
  await closeDb();
  await database.drop();
}
process.exit(0);
