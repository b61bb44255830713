import { Counter, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { startMetricsServer } from "@/lib/platform/metrics/metrics-server";

describe("the metrics listener", () => {
  it("answers GET /metrics to the token only, nothing else; a port in use is refused with a message", async () => {
    const registry = new Registry();
    new Counter({ name: "usdt_test_total", help: "a test counter", registers: [registry] }).inc(3);
    const server = await startMetricsServer({ host: "127.0.0.1", port: 0, token: "t".repeat(32), registry });
    try {
      const get = (url: string, token?: string) =>
        fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect((await get(server.url)).status).toBe(401);
      expect((await get(server.url, "t".repeat(31))).status).toBe(401);
      const ok = await get(server.url, "t".repeat(32));
      expect(ok.status).toBe(200);
      expect(ok.headers.get("content-type")).toContain("text/plain");
      expect(await ok.text()).toContain("usdt_test_total 3");
      expect((await get(server.url.replace("/metrics", "/other"), "t".repeat(32))).status).toBe(404);
      const port = Number(new URL(server.url).port);
      await expect(startMetricsServer({ host: "127.0.0.1", port, token: undefined, registry })).rejects.toThrow(
        `cannot serve metrics on 127.0.0.1:${port} (EADDRINUSE)`,
      );
    } finally {
      await server.close();
    }
  });
});
