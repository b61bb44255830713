import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { openApiDocument } from "@/lib/http/openapi/openapi-document";

/**
 * The API tests' contract check: every /v1 answer a test receives through `api()` must be what the OpenAPI
 * document says: a documented status of a documented operation, with a body that validates against its
 * schema (ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1). An answer to a path or method the document
 * does not have must still be the error envelope. A mismatch throws, which fails the test that made the call.
 */

type Json = Record<string, any>;
const DOC = openApiDocument() as unknown as Json;
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema(DOC, "openapi");

const compiled = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let fn = compiled.get(pointer);
  if (!fn) {
    fn = ajv.compile({ $ref: `openapi#${pointer}` });
    compiled.set(pointer, fn);
  }
  return fn;
}

const pointerSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const TEMPLATES = Object.keys(DOC.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
}));

/** The pointer to the JSON schema of `status`'s body for this request, or why there is none. */
function schemaPointer(method: string, path: string, status: number): { pointer: string } | { problem: string } {
  const template = TEMPLATES.find((t) => t.pattern.test(path))?.template;
  const operation = template ? DOC.paths[template][method.toLowerCase()] : undefined;
  if (!template || !operation) return { pointer: "/components/schemas/Error" };
  const base = `/paths/${pointerSegment(template)}/${method.toLowerCase()}/responses`;
  const response = operation.responses[String(status)];
  if (!response) return { problem: `${method} ${template} does not document status ${status}` };
  if (response.$ref) return { pointer: `${response.$ref.slice(1)}/content/application~1json/schema` };
  return { pointer: `${base}/${status}/content/application~1json/schema` };
}

export function checkAgainstOpenApi(method: string, url: string, status: number, headers: Headers, text: string): void {
  const path = new URL(url).pathname;
  if (!path.startsWith("/v1/") || path === "/v1/openapi.json") return;
  // No answer to judge: the client gave up (499 is never sent to a live client).
  if (status === 499) return;
  const fail = (why: string): never => {
    throw new Error(`OpenAPI contract: ${method} ${path} → ${status}: ${why}\n${text.slice(0, 600)}`);
  };
  if (headers.get("x-api-version") !== "1" || !headers.get("request-id")) fail("X-API-Version or Request-Id missing");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail("the body is not JSON");
  }
  const found = schemaPointer(method, path, status);
  if ("problem" in found) fail(found.problem);
  else {
    const validate = validatorAt(found.pointer);
    if (!validate(body)) fail(ajv.errorsText(validate.errors, { dataVar: "body" }));
  }
}
