import { docsPageResponse } from "@/lib/http/docs/docs-page";

export const dynamic = "force-dynamic";

// The API reference (swagger-ui over /v1/openapi.json, lib/http/docs/): unauthenticated, like the document.
export function GET(req: Request) {
  return docsPageResponse(req.headers.get("content-security-policy"));
}
