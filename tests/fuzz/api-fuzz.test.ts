import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SpawnedWebServer } from "@/scripts/lib/spawn-web";
import { apiRequestArbitrary, type FuzzMerchant } from "./api-requests";
import { createFuzzMerchants, type PageTargets, startFuzzServer } from "./fuzz-fixtures";
import { FuzzTally, forEachConcurrently } from "./fuzz-tally";
import { composedVariantArbitrary, OTHER_PAGE_REQUESTS, PATH_VARIANTS } from "./public-page-variants";
import { type RawRequest, sendRaw } from "./raw-http";
import { apiProblems, commonProblems, pageSecurityProblems } from "./response-checks";

// Test knobs (not service settings): FUZZ_SEED replays a run (`random` draws one; the default is fixed, so
// CI's runs reproduce from the seed they print), FUZZ_REQUESTS sizes it.
const FIXED_SEED = 20261125;
const SEED =
  process.env.FUZZ_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? FIXED_SEED);
// Of the requests asked as a well-behaved client asks, at least this share succeeds: a run where nearly
// everything came back 401, 404 or 429 would prove nothing about the routes.
const WELL_FORMED_2XX_FLOOR = 0.5;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const CONCURRENCY = 16;
const PAGE_LIMIT = 30;

let server: SpawnedWebServer;
let host: string;
let port: number;
let merchants: FuzzMerchant[];
let pages: PageTargets;

const send = (req: RawRequest) => sendRaw(host, port, req).catch((err: Error) => err);
const inApiSpace = (target: string) => /^\/v1(\/|\?|$)/.test(target);

beforeAll(async () => {
  server = await startFuzzServer();
  const url = new URL(server.url);
  host = url.hostname;
  port = Number(url.port);
  ({ merchants, pages } = await createFuzzMerchants(server.url, 4));
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

describe("fuzzing the service", () => {
  it(`answers ${REQUESTS} generated /v1 requests with no 5xx, ` +
    `the envelope on every error and the API headers`, async () => {
    console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}`);
    const requests = fc.sample(apiRequestArbitrary(merchants), { numRuns: REQUESTS, seed: SEED });
    const tally = new FuzzTally();
    let wellFormed = 0;
    let wellFormedOk = 0;
    let scopeRefusals = 0;
    await forEachConcurrently(requests, CONCURRENCY, async (req) => {
      const res = await send(req.raw);
      const problems =
        res instanceof Error
          ? [`no response: ${res.message}`]
          : inApiSpace(req.raw.target)
            ? apiProblems(res, req.raw.method)
            : commonProblems(res);
      const readsData = ["GET", "POST", "DELETE"].includes(req.raw.method);
      if (!(res instanceof Error) && req.foreignId && readsData && res.status >= 200 && res.status < 300)
        problems.push("another merchant's object answered 2xx");
      // The guard's own check: a 2xx here would mean the fuzzer mined, reorged or funded the shared chains.
      if (!(res instanceof Error) && req.touchesChains && readsData && res.status >= 200 && res.status < 300)
        problems.push("a chain-moving sandbox helper ran (the fuzzer's guard failed)");
      if (!(res instanceof Error) && req.missingScope && res.status >= 200 && res.status < 300)
        problems.push(`a key without ${req.missingScope} got ${res.status}`);
      if (!(res instanceof Error) && req.missingScope && res.status === 403) scopeRefusals++;
      if (req.wellFormed) {
        wellFormed++;
        if (!(res instanceof Error) && res.status >= 200 && res.status < 300) wellFormedOk++;
      }
      tally.record(req.label, req.raw, res, problems);
    });
    console.log(tally.report("/v1 fuzz", SEED));
    const share = wellFormedOk / wellFormed;
    console.log(
      `fuzz: ${wellFormedOk} of ${wellFormed} well-formed requests succeeded (${(share * 100).toFixed(1)} %); ` +
        `${scopeRefusals} refused for a missing scope`,
    );
    expect(tally.total).toBe(REQUESTS);
    expect([...tally.failures.keys()]).toEqual([]);
    expect(wellFormed).toBeGreaterThan(REQUESTS / 10);
    expect(share).toBeGreaterThan(WELL_FORMED_2XX_FLOOR);
    expect(scopeRefusals).toBeGreaterThan(0);
  }, 600_000);

  it("serves every spelling of a public page " +
    "path that reaches the page with its security headers and within the per-IP limit", async () => {
    const targets = Object.entries(pages);
    const composed = fc.sample(composedVariantArbitrary(), { numRuns: 40, seed: SEED });
    const variants = [...Object.entries(PATH_VARIANTS), ...composed.map((c) => [c.name, c.apply] as const)];
    const tally = new FuzzTally();
    // One client address per batch, IPv4 from the benchmarking range (an IPv6 budget may be per /64).
    let ipCounter = 0;
    const nextIp = () => `198.18.${(ipCounter >> 8) & 0xff}.${ipCounter++ & 0xff}`;

    // Under the budget (fewer than 30 requests per address): a variant answered 200 is a page, with its headers.
    const underBudget = targets.flatMap(([kind, path]) =>
      variants.map(([name, apply]) => ({ kind, name, target: apply(path) })),
    );
    const chunks = [];
    for (let i = 0; i < underBudget.length; i += PAGE_LIMIT - 5) chunks.push(underBudget.slice(i, i + PAGE_LIMIT - 5));
    const reached = new Set<string>();
    await forEachConcurrently(chunks, 4, async (chunk) => {
      const ip = nextIp();
      for (const { kind, name, target } of chunk) {
        const raw: RawRequest = { method: "GET", target, headers: [["X-Forwarded-For", ip]] };
        const res = await send(raw);
        const problems = res instanceof Error ? [`no response: ${res.message}`] : commonProblems(res);
        if (!(res instanceof Error) && res.status === 200) {
          reached.add(`${kind} ${name}`);
          problems.push(...pageSecurityProblems(res));
        }
        tally.record(`under budget: ${kind}`, raw, res, problems, `${kind} ${name}`);
      }
    });

    // Ids that name nothing, plain and hostile: whatever the
    // answer, the common rules hold (a JSON error is the envelope).
    const ip = nextIp();
    for (const id of ["pay_doesnotexist00000000", "%00", "%ff", "%", "%c0%ae", "a".repeat(3000)]) {
      for (const path of [`/checkout/${id}`, `/pay/${id}`, `/api/public/checkout/${id}/events`]) {
        const raw: RawRequest = { method: "GET", target: path, headers: [["X-Forwarded-For", ip]] };
        const res = await send(raw);
        tally.record(
          "unknown ids",
          raw,
          res,
          res instanceof Error ? [`no response: ${res.message}`] : commonProblems(res),
        );
      }
    }

    // Other methods and bodies on the pages themselves (a POST with
    // a form content type is what Next reads as a server action).
    const postIp = nextIp();
    for (const path of Object.values(pages)) {
      for (const [method, type, action, body] of OTHER_PAGE_REQUESTS) {
        const headers: [string, string][] = [["X-Forwarded-For", postIp]];
        if (type) headers.push(["Content-Type", type]);
        if (action) headers.push(["Next-Action", action.replace(/[^\t\x20-\xff]/g, "?")]);
        const raw: RawRequest = { method: method!, target: path, headers, body: Buffer.from(body!) };
        const res = await send(raw);
        tally.record(
          "other methods on the pages",
          raw,
          res,
          res instanceof Error ? [`no response: ${res.message}`] : commonProblems(res),
        );
      }
    }

    // Over the budget: with the address's 30 requests spent, no variant may still reach a page.
    for (const [kind, path] of targets) {
      const ip = nextIp();
      for (let i = 0; i < PAGE_LIMIT; i++) {
        const raw: RawRequest = { method: "GET", target: path, headers: [["X-Forwarded-For", ip]] };
        const res = await send(raw);
        tally.record(
          `spending the budget: ${kind}`,
          raw,
          res,
          res instanceof Error ? [`no response: ${res.message}`] : commonProblems(res),
        );
      }
      await forEachConcurrently(variants, 4, async ([name, apply]) => {
        const raw: RawRequest = { method: "GET", target: apply(path), headers: [["X-Forwarded-For", ip]] };
        const res = await send(raw);
        const problems = res instanceof Error ? [`no response: ${res.message}`] : commonProblems(res);
        if (!(res instanceof Error) && res.status === 200)
          problems.push("reached the page with the address's 30/min budget spent (the request was not counted)");
        tally.record(`over budget: ${kind}`, raw, res, problems, `${kind} ${name}`);
      });
    }

    console.log(tally.report("public page variants", SEED));
    console.log(`variants that reached a page (under budget): ${[...reached].sort().join(", ")}`);
    for (const [kind] of targets) expect(reached.has(`${kind} canonical`), `${kind} canonical reached`).toBe(true);
    expect([...tally.failures.keys()]).toEqual([]);
  }, 300_000);
});
