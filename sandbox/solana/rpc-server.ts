import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FacadeContext, RpcMethod } from "./context";
import { accountMethods } from "./methods-accounts";
import { blockMethods } from "./methods-blocks";
import { chainMethods } from "./methods-chain";
import { transactionMethods } from "./methods-transactions";
import { RPC_CODES, RpcError } from "./rpc-util";
import { parseJsonKeepingBigInts, stringifyJson } from "./wire";

/** JSON-RPC 2.0 over HTTP POST (single requests and batches), answering like a Solana node. */

const METHODS: Record<string, RpcMethod> = {
  ...chainMethods,
  ...accountMethods,
  ...transactionMethods,
  ...blockMethods,
};
const MAX_BODY_BYTES = 50 * 1024 * 1024;

export interface RpcServer {
  port: number;
  close(): Promise<void>;
}

type JsonRpcResponse = {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

function errorResponse(id: unknown, error: unknown): JsonRpcResponse {
  if (error instanceof RpcError) {
    return {
      jsonrpc: "2.0",
      error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
      id,
    };
  }
  console.error("[solana-sandbox] internal error:", error);
  return { jsonrpc: "2.0", error: { code: RPC_CODES.internal, message: "Internal error" }, id };
}

async function handleOne(request: unknown, ctx: FacadeContext): Promise<JsonRpcResponse> {
  const req = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const id = req && typeof req === "object" ? (req.id ?? null) : null;
  if (!req || typeof req !== "object" || req.jsonrpc !== "2.0" || typeof req.method !== "string") {
    return errorResponse(id, new RpcError(RPC_CODES.invalidRequest, "Invalid request"));
  }
  const method = METHODS[req.method];
  if (!method) return errorResponse(id, new RpcError(RPC_CODES.methodNotFound, "Method not found"));
  if (req.params !== undefined && req.params !== null && !Array.isArray(req.params)) {
    return errorResponse(id, new RpcError(RPC_CODES.invalidParams, "Invalid params: expected an array of params"));
  }
  try {
    return { jsonrpc: "2.0", result: await method((req.params as unknown[] | undefined) ?? [], ctx), id };
  } catch (error) {
    return errorResponse(id, error);
  }
}

async function handleBody(body: string, ctx: FacadeContext): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = parseJsonKeepingBigInts(body);
  } catch {
    return { jsonrpc: "2.0", error: { code: RPC_CODES.parseError, message: "Parse error" }, id: null };
  }
  if (!Array.isArray(parsed)) return handleOne(parsed, ctx);
  if (parsed.length === 0) return errorResponse(null, new RpcError(RPC_CODES.invalidRequest, "Invalid request"));
  // Sequentially, so a batch sees its own earlier writes, as a node processes a batch in order.
  const out: JsonRpcResponse[] = [];
  for (const request of parsed) out.push(await handleOne(request, ctx));
  return out;
}

export function startRpcServer(port: number, ctx: FacadeContext): Promise<RpcServer> {
  const server = http.createServer((req, res) => {
    // CORS like a public node, so browser wallets and pages can use the sandbox RPC too.
    res.setHeader("access-control-allow-origin", "*");
    const reply = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": "content-type, solana-client",
        "access-control-max-age": "86400",
      });
      return res.end();
    }
    if (req.method === "GET" && req.url === "/health") return reply(200, "ok", "text/plain");
    if (req.method !== "POST")
      return reply(405, "Used HTTP Method is not allowed. POST or OPTIONS is required", "text/plain");
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      handleBody(Buffer.concat(chunks).toString("utf8"), ctx).then(
        (response) => reply(200, stringifyJson(response)),
        (error) => reply(500, stringifyJson(errorResponse(null, error))),
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
