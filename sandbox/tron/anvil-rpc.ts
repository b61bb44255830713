/** Minimal JSON-RPC client for the anvil behind the facade. */
export class RpcError extends Error {
  constructor(
    public code: number,
    message: string,
    public data?: unknown,
  ) {
    super(message);
  }
}

export type Rpc = <T = any>(method: string, params?: unknown[]) => Promise<T>;

export function anvilRpc(url: string): Rpc {
  let id = 0;
  return async (method, params = []) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (body.error) throw new RpcError(body.error.code, body.error.message, body.error.data);
    return body.result as never;
  };
}

export const toQuantity = (n: bigint | number): string => `0x${n.toString(16)}`;
