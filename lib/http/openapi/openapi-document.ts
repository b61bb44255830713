import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { EVENT_TYPES } from "@/lib/notify/events/event-types";
import { LIMITS } from "@/lib/platform/rate-limit/policies";
import type { Operation } from "../api/operation";
import { OPERATIONS } from "../api/operations/all-operations";
import { API_VERSION } from "../api/respond";
import { ALWAYS, errorResponseComponents, errorResponses, HEADERS, RATE_LIMIT, ref } from "./shared-components";
import { API_DESCRIPTION, WEBHOOKS_DESCRIPTION } from "./api-description";

function pathParams(op: Operation) {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return undefined;
  return z.object(
    Object.fromEntries(
      names.map((n) => [n, op.pathParams?.[n] ?? z.string().meta({ description: "The object's id." })]),
    ),
  );
}

function describe(op: Operation): string {
  const scopes = [op.scope].flat();
  const lines = [
    op.description,
    `Requires the key scope${scopes.length > 1 ? "s" : ""} ${scopes.map((s) => `\`${s}\``).join(" and ")}.`,
  ];
  if (op.sandboxOnly) lines.push("Sandbox keys only: to a live key this path does not exist (404).");
  lines.push(
    `Rate limit: ${LIMITS[op.rateLimit ?? "default"]} requests per 60 s ` +
      `per key${op.rateLimit ? ` (the \`${op.rateLimit}\` window)` : ""}.`,
  );
  return lines.filter(Boolean).join("\n\n");
}

const IDEMPOTENCY_KEY = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "Makes a retry safe: the same key replays the first answer (24 h)." }),
});

function requestParams(op: Operation) {
  const path = pathParams(op);
  return {
    ...(path ? { path } : {}),
    ...(op.query ? { query: op.query as z.ZodObject } : {}),
    ...(op.method === "post" ? { header: IDEMPOTENCY_KEY } : op.headers ? { header: op.headers } : {}),
  };
}

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const isPost = op.method === "post";
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: describe(op),
    security: [{ apiKey: [op.scope].flat() }],
    requestParams: requestParams(op),
    ...(isPost && op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } }
      : {}),
    responses: {
      "200": {
        description: "OK",
        headers: ref([...ALWAYS, ...RATE_LIMIT, ...(isPost ? (["Idempotent-Replayed"] as const) : [])]),
        content: op.contents
          ? Object.fromEntries(Object.entries(op.contents).map(([type, schema]) => [type, { schema }]))
          : { [op.produces ?? "application/json"]: { schema: op.response } },
      },
      ...errorResponses(op),
    },
  };
}

/** The OpenAPI 3.1 document of /v1, generated from the operations and their zod schemas. */
export function openApiDocument(serverUrl?: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  const webhooks = Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: `The \`${type}\` event`,
          description: WEBHOOKS_DESCRIPTION,
          requestParams: {
            header: z.object({
              "service-signature": z.string().meta({ description: "`t=<unix seconds>,v1=<hex HMAC-SHA256>`." }),
            }),
          },
          // A reference to the Event the event operations answer: the zod schema, rendered as a request body,
          // would be a second, open copy.
          requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Event" } } } },
          responses: { "200": { description: "Any 2xx within 10 s acknowledges the event." } },
        },
      },
    ]),
  );
  return createDocument({
    openapi: "3.1.0",
    info: { title: "USDT payments API", version: API_VERSION, description: API_DESCRIPTION },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    security: [{ apiKey: [] }],
    paths,
    webhooks,
    components: {
      headers: HEADERS,
      responses: errorResponseComponents(),
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key (`mnt_test_sk_…` sandbox, `mnt_live_sk_…` live) " +
            "from the dashboard, with the scopes each operation names.",
        },
      },
    },
  });
}

/** The committed copy's text (docs/openapi.json): no server address, two-space indentation, a final newline. */
export const openApiDocumentText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
