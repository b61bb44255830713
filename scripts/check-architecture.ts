// `npm run lint` runs this: the architecture rules of docs/ARCHITECTURE.md ("Rules the lint enforces") over the
// module graph dependency-cruiser reads. A rule with known exceptions lists them in
// scripts/architecture-baseline.json; a new violation fails, and so does a listed one that is gone (remove it
// from the baseline in the change that fixed it), so the list only shrinks.
import fs from "node:fs";
import path from "node:path";
import {
  fileCycles,
  folderGraph,
  forbiddenImports,
  LAYERS,
  layerOf,
  loopEdges,
  type ModuleEdges,
  reachableImports,
  upwardImports,
} from "./lib/architecture-rules";
import { readModuleGraph } from "./lib/module-graph";

const root = path.resolve(import.meta.dirname, "..");
const baselineFile = path.join(root, "scripts/architecture-baseline.json");
const baseline = JSON.parse(fs.readFileSync(baselineFile, "utf8")) as Record<string, string[]>;

let modules: ModuleEdges[];
try {
  modules = readModuleGraph(root, ["lib", "app", "components", "worker", "scripts"]);
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}

const APP_CODE = /^(lib|app|components|worker)\//;
const FAMILY_TEST =
  /(family|chain|CHAIN_FAMILY\[[^\]]*\])\s*[!=]==\s*"(evm|tron|solana|eth|bnb|polygon)"|case "(evm|tron|solana)":/;
const SRC_DIRS = ["lib", "app", "components", "scripts", "worker", "sandbox", "db", "tests", "e2e", "bench", "sdk/src"];
const serviceCode = SRC_DIRS.flatMap((dir) =>
  fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .map((entry) => `${dir}/${entry}`)
    .filter((file) => /\.(tsx?|mjs)$/.test(file) && !/(^|\/)node_modules\/|^sdk\/src\/generated\//.test(file)),
).sort();
const libEntries = fs.readdirSync(path.join(root, "lib"));
const found: Record<string, string[]> = {
  [`lib/ entries that are no layer (${LAYERS.join(", ")})`]: libEntries
    .filter((entry) => !(LAYERS as readonly string[]).includes(entry))
    .map((entry) => `lib/${entry}`),
  "imports up the layers (values and types from a layer above)": upwardImports(modules),
  "file-level import cycles (values and types, inside a folder too)": fileCycles(modules),
  "folder loops (value imports between lib folders that reach each other)": loopEdges(folderGraph(modules)).filter(
    (edge) => edge.startsWith("lib/") && edge.includes("-> lib/"),
  ),
  "the dashboard layer and HTTP code with SQL of their own (lib/platform/db/query, db/schema, drizzle-orm)":
    forbiddenImports(
      modules,
      /^(lib\/dashboard|lib\/http|app)\//,
      /^(lib\/platform\/db\/query\.ts|db\/schema\/|node_modules\/drizzle-orm\/)/,
    ),
  "imports of the worker's composition root (worker/) from application code": forbiddenImports(
    modules,
    /^(lib|app|components)\//,
    /^worker\//,
  ),
  "lib/kernel importing anything of the application": forbiddenImports(
    modules,
    /^lib\/kernel\//,
    /^(lib\/(?!kernel\/)|app\/|components\/|worker\/|db\/)/,
  ),
  // A kind of money out is a client of the transfer engine (lib/money-out/README.md): the engine screens, books,
  // queues and moves it; the kind keeps only its own rules and events.
  "kinds of money out (payouts, refunds) reaching past the transfer engine": forbiddenImports(
    modules,
    /^lib\/money-out\/(payouts|refunds)\//,
    /^lib\/(money-out\/(outbound|destinations|costs|sweeps)\/|books\/|notify\/events\/record-event\.ts)/,
  ),
  // Each route bundle would get a registry of its own, and metrics of the web process are kept by its server.
  "prom-client loaded by a Next route or page (app/)": reachableImports(
    modules,
    /^app\//,
    /node_modules\/prom-client\//,
  ),
  // Live code never carries the sandbox's emulators: the families' sandbox controls load them through an import().
  "sandbox emulators (sandbox/) loaded without an import() by the web's or the worker's code": reachableImports(
    modules,
    /^(app|worker)\//,
    /^sandbox\//,
    { staticOnly: true },
  ),
  "process.env outside lib/platform/config": modules
    .map((m) => m.source)
    .filter((file) => APP_CODE.test(file) && !file.startsWith("lib/platform/config/"))
    .filter((file) => fs.readFileSync(path.join(root, file), "utf8").includes("process.env"))
    .sort(),
  // Statements are prepared once per connection (lib/platform/db/query.ts): their result columns are fixed,
  // so a column added by a migration while a release runs would break a `select *` of that table.
  "SQL selecting * of a table (prepared statements need named columns)": modules
    .map((m) => m.source)
    .filter((file) => APP_CODE.test(file) && /\.tsx?$/.test(file))
    .filter((file) =>
      /\b(select\s+\*\s+from\s+(?!unnest\b)[a-z_]+\b(?!\s+as\s+\w+\s*\()|returning\s+\*)/i.test(
        fs.readFileSync(path.join(root, file), "utf8"),
      ),
    )
    .sort(),
  // What the service knows of a chain family lives in lib/chains (lib/chains/README.md lists these, with why).
  "family or chain name tests outside lib/chains": modules
    .map((m) => m.source)
    .filter((file) => APP_CODE.test(file) && !file.startsWith("lib/chains/") && /\.tsx?$/.test(file))
    .filter((file) => FAMILY_TEST.test(fs.readFileSync(path.join(root, file), "utf8")))
    .sort(),
  // Biome wraps code at 120; this rule holds strings and comments to the same width (they are split by hand).
  "lines over 120 characters": serviceCode.flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (line.length > 120 ? [`${file}:${i + 1} (${line.length} characters)`] : [])),
  ),
};

let failed = false;
for (const [rule, now] of Object.entries(found)) {
  const known = new Set(baseline[rule] ?? []);
  const added = now.filter((v) => !known.has(v));
  const gone = [...known].filter((v) => !now.includes(v));
  if (added.length) console.error(`✗ ${rule}, new:\n    ${added.join("\n    ")}`);
  if (gone.length)
    console.error(`✗ ${rule}: fixed, remove from ${path.relative(root, baselineFile)}:\n    ${gone.join("\n    ")}`);
  if (added.length || gone.length) failed = true;
  else console.log(`✓ ${rule}: ${now.length ? `${now.length} known, listed in the baseline` : "none"}`);
}
const layersUsed = new Set(modules.map((m) => layerOf(m.source)).filter(Boolean));
console.log(`lib/ holds ${libEntries.length} top-level entries; ${layersUsed.size} layers hold code`);
process.exit(failed ? 1 : 0);
