// The architecture rules `npm run lint` enforces (scripts/check-architecture.ts), as pure functions over the
// module graph dependency-cruiser reports, so that tests can feed them a graph of their own.

/** One module and the modules it imports (paths from the repository root); `typeOnly` imports load no code. */
export interface ModuleEdges {
  source: string;
  imports: { resolved: string; typeOnly: boolean }[];
}

/** lib/<folder> for code under lib/ (a loose module `lib/log.ts` is a folder of its own), else the top folder. */
export function folderOf(path: string): string {
  const inLib = /^lib\/([^/.]+)(?:\/|\.tsx?$)/.exec(path);
  return inLib ? `lib/${inLib[1]}` : path.split("/")[0]!;
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

/** Modules in `layers` that import one of `forbidden` (path prefixes), e.g. read models importing SQL. */
export function forbiddenImports(modules: ModuleEdges[], layers: RegExp, forbidden: RegExp): string[] {
  return modules
    .filter((m) => layers.test(m.source) && m.imports.some((d) => !d.typeOnly && forbidden.test(d.resolved)))
    .map((m) => m.source)
    .sort();
}
