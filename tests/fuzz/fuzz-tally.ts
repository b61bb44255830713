import { type RawRequest, type RawResponse, replayable } from "./raw-http";

interface FailureShape {
  count: number;
  where: Map<string, number>;
  first: string;
}

/**
 * Counts per endpoint and per outcome, and each distinct failure shape (how the request was asked, the
 * status, what was wrong) with the endpoints it showed on and the first request that showed it.
 */
export class FuzzTally {
  readonly perLabel = new Map<string, number>();
  readonly perOutcome = new Map<string, number>();
  readonly failures = new Map<string, FailureShape>();
  total = 0;

  /** `where`: what the failure list names as the place of a failure (the label unless finer). */
  record(label: string, req: RawRequest, res: RawResponse | Error, problems: string[], where = label): void {
    this.total++;
    bump(this.perLabel, label);
    bump(this.perOutcome, res instanceof Error ? "no response" : outcomeOf(res));
    if (problems.length === 0) return;
    const shape = `${askedAs(req)} -> ${res instanceof Error ? "-" : res.status}: ${problems.join("; ")}`;
    const known = this.failures.get(shape) ?? { count: 0, where: new Map(), first: replayable(req) };
    known.count++;
    bump(known.where, where);
    this.failures.set(shape, known);
  }

  get failureCount(): number {
    return [...this.failures.values()].reduce((n, f) => n + f.count, 0);
  }

  report(title: string, seed: number): string {
    const lines = [`== ${title}: ${this.total} requests, ${this.failureCount} failures (FUZZ_SEED=${seed})`];
    lines.push("-- requests per endpoint");
    for (const [label, n] of [...this.perLabel].sort()) lines.push(`${String(n).padStart(6)}  ${label}`);
    lines.push("-- outcomes (status and error type or content type)");
    for (const [outcome, n] of [...this.perOutcome].sort((a, b) => b[1] - a[1]))
      lines.push(`${String(n).padStart(6)}  ${outcome}`);
    if (this.failures.size) {
      lines.push(`-- ${this.failures.size} distinct failure shapes; each with where it showed and its first request`);
      lines.push("   (a JSON line that sendRaw in tests/fuzz/raw-http.ts sends again)");
      for (const [shape, f] of [...this.failures].sort((a, b) => b[1].count - a[1].count)) {
        const where = [...f.where].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} (${n})`);
        lines.push(`${String(f.count).padStart(6)}  ${shape}`);
        lines.push(
          `        on: ${where.slice(0, 10).join(", ")}${where.length > 10 ? `, … ${where.length - 10} more` : ""}`,
        );
        lines.push(`        first: ${f.first}`);
      }
    }
    return lines.join("\n");
  }
}

/**
 * What about the request most likely explains a failure: an unusual method first, else the target's
 * oddity, else the method; so a shape groups one cause across endpoints.
 */
function askedAs(req: RawRequest): string {
  if (req.method !== req.method.toUpperCase()) return "non-uppercase method";
  if (!["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].includes(req.method)) return "extension method";
  const trait = requestTrait(req.target);
  return trait ? `${req.method === "HEAD" ? "HEAD, " : ""}${trait}` : req.method;
}

/** The one thing about a request target most likely to explain a failure, checked in this order. */
function requestTrait(target: string): string {
  const [path = "", query] = target.split(/\?(.*)/s);
  if (/[^\x21-\x7e]/.test(target)) return "raw space, control or 8-bit byte in the target";
  if (/%(?![0-9a-f]{2})/i.test(path)) return "malformed %-escape in the path";
  try {
    decodeURIComponent(path);
  } catch {
    return "%-escapes in the path that are not UTF-8";
  }
  if (/%00/.test(path)) return "NUL (%00) in the path";
  if (/(^|\/)(\.|%2e){1,2}(\/|$|;|#)/i.test(path) || /%c0%ae/i.test(path)) return "dot segment in the path";
  if (query !== undefined && /%(?![0-9a-f]{2})/i.test(query)) return "malformed %-escape in the query";
  if (query !== undefined && /%00/.test(query)) return "NUL (%00) in the query";
  return "";
}

function outcomeOf(res: RawResponse): string {
  let type = "";
  try {
    type = JSON.parse(res.body.toString("utf8"))?.error?.type ?? "";
  } catch {
    /* not JSON */
  }
  const kind = res.streamed ? "event-stream" : (res.headers["content-type"] ?? "no content-type").split(";")[0];
  return `${res.status} ${type || kind}`;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Runs `fn` over the items, `concurrency` at a time. */
export async function forEachConcurrently<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
