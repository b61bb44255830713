import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { RouteHandler } from "@/lib/http/api/route";
import { routePatterns } from "./route-patterns";

export interface ApiRouteMatch {
  /** The export that answers the method, as Next picks it (HEAD is answered by GET), or null for none. */
  handler: RouteHandler | null;
  /** Decoded, as Next gives them. */
  params: Record<string, string | string[]>;
}

export interface ApiRouteTable {
  size: number;
  /** `rawPath`: the path as forwarded to Next (its escapes kept, each valid). */
  match(method: string, rawPath: string): ApiRouteMatch | null;
}

interface RouteModule {
  ensureUserland(): Promise<void>;
  userland: unknown;
}

const decode = (v: string | string[]) => (Array.isArray(v) ? v.map(decodeURIComponent) : decodeURIComponent(v));

/**
 * The /v1 route handlers of Next's production build in `dir`, so that the web server calls them itself:
 * the same modules Next loads (Node's require cache holds one copy of each, so one pool and one listener
 * per process), without Next's router, its request and response adapters and the async contexts its pages
 * need: about half of a create's CPU in the web process (lib/http/README.md). The API's routes are
 * framework-free (lib/http/api/route.ts), so nothing of Next's request scope is missing.
 * Null when the build's layout is not the one this reads (another Next version): Next then serves /v1.
 */
export async function loadApiRoutes(dir: string, prefix = "/v1"): Promise<ApiRouteTable | null> {
  const serverDir = path.join(dir, ".next", "server");
  const manifestFile = path.join(serverDir, "app-paths-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, string>;
  const requireBuilt = createRequire(manifestFile);
  const routes: [string, Record<string, RouteHandler | undefined>][] = [];
  for (const [page, file] of Object.entries(manifest)) {
    if (!page.startsWith(`${prefix}/`) || !page.endsWith("/route")) continue;
    const routeModule = (requireBuilt(path.join(serverDir, file)) as { routeModule?: RouteModule }).routeModule;
    if (typeof routeModule?.ensureUserland !== "function") return null;
    await routeModule.ensureUserland();
    const userland = routeModule.userland as Record<string, RouteHandler | undefined>;
    const methods: Record<string, RouteHandler | undefined> = {};
    for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE"])
      if (typeof userland[m] === "function") methods[m] = userland[m];
    methods.HEAD = userland.HEAD ?? methods.GET;
    routes.push([page.slice(0, -"/route".length), methods]);
  }
  if (routes.length === 0) return null;
  const match = routePatterns(routes);
  return {
    size: routes.length,
    match(method, rawPath) {
      const found = match(rawPath);
      if (!found) return null;
      return {
        handler: found.value[method] ?? null,
        params: Object.fromEntries(Object.entries(found.params).map(([k, v]) => [k, decode(v)])),
      };
    },
  };
}
