// The architecture rules `npm run lint` enforces (scripts/check-architecture.ts), as pure functions over the
// module graph dependency-cruiser reports, so that tests can feed them a graph of their own.

/**
 * One module and the modules it imports (paths from the repository root); `typeOnly` imports load no code, a
 * `dynamic` one (`import()`) loads it only when that code runs.
 */
export interface ModuleEdges {
  source: string;
  imports: { resolved: string; typeOnly: boolean; dynamic?: boolean }[];
}

/**
 * lib/'s layers, bottom first: a layer's code imports only from the layers before it (docs/ARCHITECTURE.md).
 * The three money and notification contexts sit in one band, ordered by who records whose facts: payments and
 * payouts record events, payouts read payments.
 */
export const LAYERS = [
  "kernel",
  "platform",
  "chains",
  "books",
  "notify",
  "money-in",
  "money-out",
  "reports",
  "identity",
  "http",
  "dashboard",
  "cli",
] as const;

/** The layer of a module under lib/ (`lib/<layer>/…`), else null. */
export function layerOf(path: string): string | null {
  return /^lib\/([^/.]+)\//.exec(path)?.[1] ?? null;
}

/**
 * The unit the loop rule compares: a folder inside a layer (`lib/money-in/payments`), the modules at a layer's
 * top together (`lib/kernel`), or the top folder outside lib/.
 */
export function folderOf(path: string): string {
  const inFolder = /^lib\/([^/]+)\/([^/]+)\//.exec(path);
  if (inFolder) return `lib/${inFolder[1]}/${inFolder[2]}`;
  const layer = layerOf(path);
  return layer ? `lib/${layer}` : path.split("/")[0]!;
}

/**
 * Imports that go up the layers (or into a folder of lib/ that is no layer), as "module -> module": type-only ones
 * too, since a port typed by a layer above cannot be read bottom-up even though it loads no code.
 */
export function upwardImports(modules: ModuleEdges[], layers: readonly string[] = LAYERS): string[] {
  const rank = (layer: string) => (layers.includes(layer) ? layers.indexOf(layer) : Number.POSITIVE_INFINITY);
  const found: string[] = [];
  for (const m of modules) {
    const from = layerOf(m.source);
    if (!from) continue;
    for (const dep of m.imports) {
      const to = layerOf(dep.resolved);
      if (!to || to === from) continue;
      if (rank(to) > rank(from) || rank(from) === Number.POSITIVE_INFINITY)
        found.push(`${m.source} -> ${dep.resolved}`);
    }
  }
  return found.sort();
}

/** Folder → folders it imports code from (value imports only: a type-only import loads nothing). */
export function folderGraph(modules: ModuleEdges[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const m of modules) {
    const from = folderOf(m.source);
    for (const dep of m.imports) {
      const to = folderOf(dep.resolved);
      if (dep.typeOnly || to === from || to === "node_modules") continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The folder edges that lie on a loop (inside a strongly connected component of two or more folders), as "a -> b". */
export function loopEdges(graph: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (!component.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        component.set(w, components);
        if (w === v) break;
      }
      components++;
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  const edges: string[] = [];
  for (const [from, tos] of graph)
    for (const to of tos) if (component.get(from) === component.get(to)) edges.push(`${from} -> ${to}`);
  return edges.sort();
}

/** Modules in `layers` that import one of `forbidden` (path prefixes), e.g. the dashboard layer importing SQL. */
export function forbiddenImports(modules: ModuleEdges[], layers: RegExp, forbidden: RegExp): string[] {
  return modules
    .filter((m) => layers.test(m.source) && m.imports.some((d) => !d.typeOnly && forbidden.test(d.resolved)))
    .map((m) => m.source)
    .sort();
}

/**
 * The modules that `entries` load (value imports, followed transitively) which import `forbidden` themselves:
 * what a bundle built from those entries would pull in.
 */
export function reachableImports(
  modules: ModuleEdges[],
  entries: RegExp,
  forbidden: RegExp,
  { staticOnly = false } = {},
): string[] {
  const seen = loadedBy(modules, entries, staticOnly);
  const followed = modules
    .filter((m) => seen.has(m.source))
    .map((m) => ({ ...m, imports: m.imports.filter((d) => !(staticOnly && d.dynamic)) }));
  return forbiddenImports(followed, /./, forbidden);
}

/** Every module `entries` load (value imports, transitively; with `staticOnly`, not through an `import()`). */
export function loadedBy(modules: ModuleEdges[], entries: RegExp, staticOnly = false): Set<string> {
  const bySource = new Map(modules.map((m) => [m.source, m]));
  const seen = new Set<string>();
  const queue = modules.filter((m) => entries.test(m.source)).map((m) => m.source);
  while (queue.length) {
    const source = queue.pop()!;
    if (seen.has(source)) continue;
    seen.add(source);
    for (const dep of bySource.get(source)?.imports ?? [])
      if (!dep.typeOnly && !(staticOnly && dep.dynamic)) queue.push(dep.resolved);
  }
  return seen;
}

/**
 * The edges of import cycles between files (values and types alike, inside one folder too), as "a -> b": a cycle
 * means neither file can be read without the other; a type both need goes in a file of its own.
 */
export function fileCycles(modules: ModuleEdges[]): string[] {
  const files = new Set(modules.map((m) => m.source));
  const graph = new Map<string, Set<string>>();
  for (const m of modules) graph.set(m.source, new Set(m.imports.map((d) => d.resolved).filter((f) => files.has(f))));
  return loopEdges(graph);
}
