/**
 * Writes docs/openapi.json, the committed copy of the document GET /v1/openapi.json serves (without the
 * installation's server address). `npm run openapi` after changing an operation or a response schema;
 * tests/api/openapi-document.test.ts fails while the copy is stale.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocumentText } from "@/lib/http/openapi/openapi-document";

const target = path.join(import.meta.dirname, "..", "docs", "openapi.json");
writeFileSync(target, openApiDocumentText());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
