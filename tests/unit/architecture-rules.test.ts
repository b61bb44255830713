import { describe, expect, it } from "vitest";
import { folderGraph, folderOf, forbiddenImports, loopEdges, type ModuleEdges } from "@/scripts/lib/architecture-rules";

const mod = (source: string, ...imports: (string | [string, "type"])[]): ModuleEdges => ({
  source,
  imports: imports.map((i) =>
    typeof i === "string" ? { resolved: i, typeOnly: false } : { resolved: i[0], typeOnly: true },
  ),
});

describe("architecture rules (npm run lint)", () => {
  it("groups modules by lib folder; a loose module is its own", () => {
    expect(["lib/api/route.ts", "lib/log.ts", "app/v1/x/route.ts", "worker/jobs/a.ts"].map(folderOf)).toEqual([
      "lib/api",
      "lib/log",
      "app",
      "worker",
    ]);
  });

  it("finds the edges of a folder loop, through a third folder too, and nothing else", () => {
    const graph = folderGraph([
      mod("lib/a/x.ts", "lib/b/y.ts"),
      mod("lib/b/y.ts", "lib/c/z.ts", "lib/d/w.ts"),
      mod("lib/c/z.ts", "lib/a/v.ts"),
      mod("lib/d/w.ts", "lib/kernel/k.ts"),
    ]);
    expect(loopEdges(graph)).toEqual(["lib/a -> lib/b", "lib/b -> lib/c", "lib/c -> lib/a"]);
  });

  it("counts value imports only: a type-only import back is no loop", () => {
    const graph = folderGraph([mod("lib/a/x.ts", "lib/b/y.ts"), mod("lib/b/y.ts", ["lib/a/x.ts", "type"])]);
    expect(loopEdges(graph)).toEqual([]);
  });

  it("names the modules of a layer that import what the layer must not", () => {
    const modules = [
      mod("lib/dashboard/a.ts", "lib/db/query.ts"),
      mod("lib/dashboard/b.ts", "lib/payments/list.ts"),
      mod("lib/dashboard/c.ts", ["lib/db/query.ts", "type"]),
      mod("lib/payments/list.ts", "lib/db/query.ts"),
    ];
    expect(forbiddenImports(modules, /^lib\/dashboard\//, /^lib\/db\/query\.ts$/)).toEqual(["lib/dashboard/a.ts"]);
  });
});
