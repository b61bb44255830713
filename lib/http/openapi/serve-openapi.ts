import { config } from "@/lib/platform/config/env";
import { jsonResponse, requestIdOf } from "../api/respond";
import { openApiDocument } from "./openapi-document";

let cached: string | undefined;

/**
 * GET /v1/openapi.json: the document, without authentication (it holds no secret, and clients generate
 * code from it), with this installation's address as its server. Built once per process.
 */
export function serveOpenApiDocument(req: Request): Response {
  cached ??= JSON.stringify(openApiDocument(`${config().publicBaseUrl}`));
  return jsonResponse(200, cached, requestIdOf(req), { "Cache-Control": "public, max-age=300" });
}
