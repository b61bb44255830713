// `npm run --silent measure:walks`: the domain hand-offs on a payout's walk, POST /v1/payouts to confirmed
// (docs/ARCHITECTURE.md, "The two walks"). A hand-off is a pair of domain folders (lib/<layer>/<folder> of books,
// notify, money-in, money-out, reports; app/ and worker/ as the entries) of which one calls the other on the walk,
// counted once whichever calls: a hook the engine calls back is the pair its registration made. The walk is the
// static value imports from its entries; the layers under the domain (kernel, platform, chains) and the HTTP edge
// every route shares (http, identity) are not hand-offs. Printed, not tested: a measure for the architecture's
// reviews.
import path from "node:path";
import { readModuleGraph } from "./lib/module-graph";

const root = path.resolve(import.meta.dirname, "..");
const WALKS: Record<string, { entries: string[]; notOnWalk?: RegExp }> = {
  "payout, POST /v1/payouts to confirmed": {
    entries: [
      "app/v1/payouts/route.ts",
      "worker/jobs/execute-payout.ts",
      "worker/outbound-hooks.ts",
      "lib/money-out/outbound/start-outbound.ts",
    ],
    // The worker registers every kind's hooks at once; a payout's walk runs only its own.
    notOnWalk: /^lib\/money-out\/refunds\//,
  },
};
const DOMAIN = /^lib\/((books|notify|money-in|money-out|reports)\/[^/]+)\//;
const unitOf = (file: string) => DOMAIN.exec(file)?.[1] ?? /^(app|worker)\//.exec(file)?.[1] ?? null;

// Value imports only: a type is no call, and an import() is a sandbox-only load.
const modules = new Map(
  readModuleGraph(root, ["lib", "app", "worker"]).map((m) => [
    m.source,
    m.imports.filter((d) => !d.typeOnly && !d.dynamic),
  ]),
);

for (const [walk, { entries, notOnWalk }] of Object.entries(WALKS)) {
  const seen = new Set<string>();
  const pairs = new Map<string, string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file) || notOnWalk?.test(file)) continue;
    seen.add(file);
    for (const { resolved } of modules.get(file) ?? []) {
      if (notOnWalk?.test(resolved) || !/^(lib|app|worker)\//.test(resolved)) continue;
      stack.push(resolved);
      const [a, b] = [unitOf(file), unitOf(resolved)];
      if (!a || !b || a === b) continue;
      const pair = [a, b].sort().join(" — ");
      if (!pairs.has(pair)) pairs.set(pair, `${file} → ${resolved}`);
    }
  }
  console.log(`${walk}: ${pairs.size} domain hand-offs, ${seen.size} files`);
  for (const [pair, example] of [...pairs].sort()) console.log(`  ${pair.padEnd(52)} ${example}`);
}
