import { spawnSync } from "node:child_process";
import path from "node:path";
import type { ModuleEdges } from "./architecture-rules";

/** The import graph of `dirs` as dependency-cruiser reads it (.dependency-cruiser.cjs): each file and its imports. */
export function readModuleGraph(root: string, dirs: string[]): ModuleEdges[] {
  const cruise = spawnSync(
    path.join(root, "node_modules/.bin/depcruise"),
    ["--config", ".dependency-cruiser.cjs", "--output-type", "json", ...dirs],
    { cwd: root, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
  );
  if (cruise.status !== 0) throw new Error(`dependency-cruiser failed:\n${cruise.stderr}`);
  return (
    JSON.parse(cruise.stdout) as {
      modules: { source: string; dependencies: { resolved: string; dependencyTypes: string[] }[] }[];
    }
  ).modules.map((m) => ({
    source: m.source,
    imports: m.dependencies.map((d) => ({
      resolved: d.resolved,
      typeOnly: d.dependencyTypes.includes("type-only"),
      dynamic: d.dependencyTypes.includes("dynamic-import"),
    })),
  }));
}
