import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

// The installed package, from the project root (the web server's working directory): a bundled route
// cannot find it next to its own file.
const PACKAGE_DIR = path.join(process.cwd(), "node_modules", "swagger-ui-dist");

/** The swagger-ui-dist files the reference page loads, with their types: no other file is served. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

let version: string | undefined;
/** The installed version, put in the assets' URLs so an upgrade is never hidden by a browser's cache. */
export function swaggerUiVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string }).version;
  return version;
}

const cache = new Map<string, Promise<Buffer>>();

/** One allow-listed file with a year's caching (its URL changes with the version), or 404. */
export async function swaggerAssetResponse(file: string): Promise<Response> {
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!type) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  let body = cache.get(file);
  if (!body) {
    body = readFile(path.join(PACKAGE_DIR, file));
    body.catch(() => cache.delete(file));
    cache.set(file, body);
  }
  return new Response(new Uint8Array(await body), {
    headers: {
      "Content-Type": type,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
