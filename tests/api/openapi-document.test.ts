import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/http/api/operations/all-operations";
import type { RouteHandler } from "@/lib/http/api/route";
import { openApiDocument, openApiDocumentText } from "@/lib/http/openapi/openapi-document";
import { webUrls } from "../helpers/api";

const root = path.resolve(import.meta.dirname, "..", "..");
const routeFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : [],
  );
const routeFileOf = (apiPath: string) => path.join(root, "app", apiPath.replace(/\{(\w+)\}/g, "[$1]"), "route.ts");

describe("the OpenAPI document", () => {
  it("is committed as docs/openapi.json, and the copy is current (npm run openapi rewrites it)", () => {
    const committed = readFileSync(path.join(root, "docs", "openapi.json"), "utf8");
    expect(committed === openApiDocumentText(), "docs/openapi.json is stale: run `npm run openapi`").toBe(true);
  });

  it("the SDK's generated types are current (cd sdk && npm run generate rewrites them)", () => {
    const check = spawnSync("npm", ["run", "--silent", "check:generated"], {
      cwd: path.join(root, "sdk"),
      encoding: "utf8",
    });
    expect(check.status, `sdk/src/generated/api.ts is stale: ${check.stdout}${check.stderr}`).toBe(0);
  });

  it("passes an independent OpenAPI 3.1 validator", async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("is served without a key at /v1/openapi.json, naming this installation as its server", async () => {
    const res = await fetch(`${webUrls()[0]}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-api-version")).toBe("1");
    const served = await res.json();
    expect(served.openapi).toBe("3.1.0");
    expect(served.servers).toEqual([{ url: expect.stringMatching(/^https?:\/\//) }]);
    const { servers: _servers, ...rest } = served;
    expect(rest).toEqual(JSON.parse(openApiDocumentText()));
  });

  it("documents every error type, the key's scopes, Idempotency-Key on every POST and each event as a webhook", () => {
    const doc = openApiDocument() as any;
    const types = doc.components.schemas.Error.properties.error.properties.type.enum;
    expect(types).toHaveLength(9);
    for (const op of OPERATIONS) {
      const documented = doc.paths[op.path][op.method];
      expect(documented.security, op.operationId).toEqual([{ apiKey: [op.scope].flat() }]);
      const headers = (documented.parameters ?? []).filter((p: any) => p.in === "header").map((p: any) => p.name);
      const declared = Object.keys(op.headers?.shape ?? {});
      expect(headers, op.operationId).toEqual(op.method === "post" ? ["Idempotency-Key"] : declared);
    }
    expect(Object.keys(doc.webhooks)).toContain("payment.confirmed");
    expect(doc.webhooks["payout.failed"].post.parameters[0].name).toBe("service-signature");
  });
});

describe("the operations and the route files", () => {
  it("each operation is served by the route file at its path, with its method", async () => {
    for (const op of OPERATIONS) {
      const mod = (await import(routeFileOf(op.path))) as Record<string, RouteHandler>;
      expect(mod[op.method.toUpperCase()]?.operationId, `${op.method} ${op.path}`).toBe(op.operationId);
    }
  });

  it("no route file serves a /v1 method the document leaves out", async () => {
    const files = routeFiles(path.join(root, "app", "v1")).filter(
      (f) => !f.includes("[[...path]]") && !f.includes("openapi.json"),
    );
    const served = new Set<string>();
    for (const file of files) {
      const mod = (await import(file)) as Record<string, RouteHandler>;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
        if (mod[method]?.operationId) served.add(mod[method].operationId!);
    }
    expect([...served].sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });
});
