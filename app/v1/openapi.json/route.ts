import { apiMethods } from "@/lib/http/api/methods";
import { serveOpenApiDocument } from "@/lib/http/openapi/serve-openapi";

export const { GET, POST, PUT, PATCH, DELETE } = apiMethods({ GET: async (req) => serveOpenApiDocument(req) });
