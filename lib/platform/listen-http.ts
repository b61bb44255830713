import type http from "node:http";

/** Starts `server` on host:port (0: any free port) and returns its base URL, e.g. `http://127.0.0.1:3000`. */
export async function listenHttp(server: http.Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return `http://${host.includes(":") ? `[${host}]` : host}:${bound}`;
}
