import http from "node:http";
import { performance } from "node:perf_hooks";
import { cpuWindow, type Figures } from "./measure";

export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate, evenly spaced, sent then whatever
 * is still in flight, and its latency runs from when it was due (a late send counts against the server, so
 * a stall is not hidden: coordinated omission). autocannon's `overallRate` is neither: each connection sends
 * its share of a second back to back at the second's start, then idles, so its "fixed rate" is a burst of
 * the whole second's requests, and its p99 measures that queue (the trivial route's came out at 87-134 ms).
 */
export async function measurePaced(
  name: string,
  webPid: number,
  opts: { origin: string; rate: number; durationS: number; request: () => PacedRequest },
): Promise<Figures> {
  const { hostname, port } = new URL(opts.origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(opts.rate * opts.durationS);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const cpu = cpuWindow(webPid);
  const start = performance.now() + 20;
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const req = opts.request();
    sends.push(
      new Promise<void>((resolve) => {
        const sent = http.request(
          { agent, hostname, port, method: req.method, path: req.path, headers: req.headers },
          (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode! >= 200 && res.statusCode! < 300) latencies.push(performance.now() - due);
              else non2xx++;
              resolve();
            });
          },
        );
        sent.on("error", () => {
          errors++;
          resolve();
        });
        sent.end(req.body);
      }),
    );
  }
  await Promise.all(sends);
  const elapsedS = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    name,
    rps: latencies.length / elapsedS,
    p50: at(0.5),
    p99: at(0.99),
    non2xx,
    errors,
    ...cpu(total),
  };
}
