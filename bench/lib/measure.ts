import fs from "node:fs";
import autocannon from "autocannon";

export interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time per request of the web process (user + system), from /proc. */
  webCpuMs: number;
  /** CPU time per request of the whole machine (web + PostgreSQL + load generator). */
  allCpuMs: number;
}

export function processTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime, 1/100 s
}

export function machineTicks(): number {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}

/** Starts counting CPU time; the returned function gives the web process's and the machine's per request since. */
export function cpuWindow(webPid: number): (requests: number) => Pick<Figures, "webCpuMs" | "allCpuMs"> {
  const web = processTicks(webPid);
  const machine = machineTicks();
  return (requests) => ({
    webCpuMs: ((processTicks(webPid) - web) * 10) / Math.max(1, requests),
    allCpuMs: ((machineTicks() - machine) * 10) / Math.max(1, requests),
  });
}

/** Runs one load case and returns throughput, latency and CPU per request. */
export async function measure(name: string, webPid: number, opts: autocannon.Options): Promise<Figures> {
  const cpu = cpuWindow(webPid);
  const result = await autocannon(opts);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...cpu(result.requests.total),
  };
}

export function printTable(rows: Figures[]): void {
  const head = ["case".padEnd(60), "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "web cpu ms", "all cpu ms"];
  console.log(head.map((h, i) => (i === 0 ? h : h.padStart(10))).join(" "));
  for (const f of rows) {
    const cells = [
      f.rps.toFixed(0),
      String(f.p50),
      String(f.p99),
      String(f.non2xx),
      String(f.errors),
      f.webCpuMs.toFixed(2),
      f.allCpuMs.toFixed(2),
    ];
    console.log([f.name.padEnd(60), ...cells.map((c) => c.padStart(10))].join(" "));
  }
  console.log("(web cpu ms / all cpu ms: CPU time per request of the web process / of the whole 2-core machine)");
}
