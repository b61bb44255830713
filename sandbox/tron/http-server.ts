import http from "node:http";
import { headNumber } from "./blocks";
import type { FacadeContext, View } from "./context";
import { handleJsonRpc } from "./jsonrpc";
import { READS, WRITES } from "./wallet-api";

/**
 * The Tron HTTP API facade: /wallet/*, /walletsolidity/* (reads, 19 blocks behind) and /jsonrpc.
 * GET takes query parameters, POST a JSON body (TronWeb uses both); java-tron answers errors with
 * HTTP 200 and {"Error": …}, which TronWeb checks for.
 */
export function startHttpServer(ctx: FacadeContext, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    handle(ctx, req)
      .then(([status, body]) => send(res, status, body))
      .catch((e: unknown) => send(res, 200, { Error: e instanceof Error ? e.message : String(e) }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  // Browser wallets and dashboards call the sandbox from other origins.
  res.writeHead(status, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "*",
  });
  res.end(status === 204 ? undefined : JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(ctx: FacadeContext, req: http.IncomingMessage): Promise<[number, unknown]> {
  if (req.method === "OPTIONS") return [204, null];
  const url = new URL(req.url ?? "/", "http://localhost");
  const text = await readBody(req);
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      return [200, { Error: "request body is not JSON" }];
    }
  }
  const path = url.pathname.replace(/\/+$/, "").toLowerCase();
  if (path === "/jsonrpc") return [200, await consistentRead(ctx, () => handleJsonRpc(ctx, body))];

  const match = /^\/(wallet|walletsolidity)\/([a-z0-9]+)$/.exec(path);
  const solid = match?.[1] === "walletsolidity";
  const read = match ? READS[match[2]!] : undefined;
  const handler = read ?? (match && !solid ? WRITES[match[2]!] : undefined);
  if (!handler) return [404, { Error: `no such endpoint: ${url.pathname}` }];

  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  for (const k of ["visible", "detail"])
    if (params[k] === "true" || params[k] === "false") params[k] = params[k] === "true";
  Object.assign(params, typeof body === "object" && body !== null ? body : {});
  const run = async () => {
    const head = await headNumber(ctx.rpc);
    const top = solid ? Math.max(0, head - ctx.solidLag) : head;
    const view: View = {
      visible: params.visible === true,
      top,
      maxBlock: solid ? top : Number.MAX_SAFE_INTEGER,
      solid,
    };
    return handler(ctx, params, view);
  };
  return [200, read ? await consistentRead(ctx, run) : await run()];
}

/**
 * A broadcast records its txID only after anvil accepted the transaction, so a read racing it could see the
 * anvil hash where the Tron txID belongs. Such a read is answered again once the broadcasts have settled.
 */
async function consistentRead<T>(ctx: FacadeContext, run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const generation = ctx.index.generation;
    const result = await run();
    if (attempt === 3 || (!ctx.index.busy && ctx.index.generation === generation)) return result;
    await ctx.index.settled();
  }
}
