import { describe, expect, it } from "vitest";
import {
  fileCycles,
  folderGraph,
  folderOf,
  forbiddenImports,
  loopEdges,
  type ModuleEdges,
  reachableImports,
  upwardImports,
} from "@/scripts/lib/architecture-rules";

const mod = (source: string, ...imports: (string | [string, "type"])[]): ModuleEdges => ({
  source,
  imports: imports.map((i) =>
    typeof i === "string" ? { resolved: i, typeOnly: false } : { resolved: i[0], typeOnly: true },
  ),
});

describe("architecture rules (npm run lint)", () => {
  it("groups modules by folder inside a layer; a layer's loose modules are one unit", () => {
    expect(
      [
        "lib/http/api/route.ts",
        "lib/platform/log.ts",
        "lib/kernel/amount.ts",
        "app/v1/x/route.ts",
        "worker/jobs/a.ts",
      ].map(folderOf),
    ).toEqual(["lib/http/api", "lib/platform", "lib/kernel", "app", "worker"]);
  });

  it("names imports that go up the layers or out of any layer, type-only ones too", () => {
    const modules = [
      mod("lib/money-in/payments/a.ts", "lib/platform/db/query.ts", "lib/notify/events/record-event.ts"),
      mod("lib/notify/events/b.ts", "lib/money-in/payments/a.ts", ["lib/money-out/payouts/c.ts", "type"]),
      mod("lib/kernel/d.ts", "lib/kernel/e.ts"),
      mod("lib/stray/f.ts", "lib/kernel/d.ts"),
    ];
    expect(upwardImports(modules)).toEqual([
      "lib/notify/events/b.ts -> lib/money-in/payments/a.ts",
      "lib/notify/events/b.ts -> lib/money-out/payouts/c.ts",
      "lib/stray/f.ts -> lib/kernel/d.ts",
    ]);
  });

  it("finds file-level cycles inside one folder, through a type import too, and nothing else", () => {
    const modules = [
      mod("lib/money-out/outbound/track.ts", "lib/money-out/outbound/progress.ts", "lib/kernel/k.ts"),
      mod("lib/money-out/outbound/progress.ts", ["lib/money-out/outbound/track.ts", "type"]),
      mod("lib/money-out/outbound/sign.ts", "lib/money-out/outbound/progress.ts"),
      mod("lib/kernel/k.ts"),
    ];
    expect(fileCycles(modules)).toEqual([
      "lib/money-out/outbound/progress.ts -> lib/money-out/outbound/track.ts",
      "lib/money-out/outbound/track.ts -> lib/money-out/outbound/progress.ts",
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
      mod("lib/dashboard/a.ts", "lib/platform/db/query.ts"),
      mod("lib/dashboard/b.ts", "lib/money-in/payments/list.ts"),
      mod("lib/dashboard/c.ts", ["lib/platform/db/query.ts", "type"]),
      mod("lib/money-in/payments/list.ts", "lib/platform/db/query.ts"),
    ];
    expect(forbiddenImports(modules, /^lib\/dashboard\//, /^lib\/platform\/db\/query\.ts$/)).toEqual([
      "lib/dashboard/a.ts",
    ]);
  });

  it("follows value imports from the entries to what imports the forbidden module, and no further", () => {
    const modules = [
      mod("app/a/route.ts", "lib/http/x.ts", ["lib/platform/metrics/types.ts", "type"]),
      mod("lib/http/x.ts", "lib/platform/y.ts"),
      mod("lib/platform/y.ts", "node_modules/prom-client/index.js"),
      mod("lib/platform/metrics/types.ts", "node_modules/prom-client/index.js"),
      mod("scripts/start-web.ts", "lib/platform/z.ts"),
      mod("lib/platform/z.ts", "node_modules/prom-client/index.js"),
    ];
    expect(reachableImports(modules, /^app\//, /node_modules\/prom-client\//)).toEqual(["lib/platform/y.ts"]);
  });

  it("with staticOnly, stops at an import(): the sandbox's emulators loaded on demand are no live code's", () => {
    const modules: ModuleEdges[] = [
      mod("worker/jobs/pay.ts", "lib/chains/families.ts"),
      {
        source: "lib/chains/families.ts",
        imports: [
          { resolved: "lib/chains/tron/tron-ops.ts", typeOnly: false, dynamic: true },
          { resolved: "lib/chains/tron/tron-driver.ts", typeOnly: false },
        ],
      },
      mod("lib/chains/tron/tron-ops.ts", "sandbox/tron/tron-sandbox.ts"),
      mod("lib/chains/tron/tron-driver.ts", "lib/chains/tron/tron-node.ts"),
    ];
    expect(reachableImports(modules, /^worker\//, /^sandbox\//, { staticOnly: true })).toEqual([]);
    expect(reachableImports(modules, /^worker\//, /^sandbox\//)).toEqual(["lib/chains/tron/tron-ops.ts"]);
    // The same import written statically is found.
    modules[1]!.imports[0]!.dynamic = false;
    expect(reachableImports(modules, /^worker\//, /^sandbox\//, { staticOnly: true })).toEqual([
      "lib/chains/tron/tron-ops.ts",
    ]);
  });
});
