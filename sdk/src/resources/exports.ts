import type { RequestOptions, Transport } from "../transport.js";
import type { BalanceTransaction, ExportParams, Payment, Payout, Refund } from "../types.js";

/** An export being downloaded: read it once, as a stream, as text, or (JSON lines) object by object. */
export interface ExportFile<T> {
  /** `payments-sandbox-2026-12-03.csv`: the name the service gives the file. */
  filename: string | null;
  contentType: string;
  requestId: string | null;
  /** The file's bytes as they arrive (pipe it to disk or to a CSV parser). */
  body: ReadableStream<Uint8Array>;
  /** The whole file (for a small export). */
  text(): Promise<string>;
  /** JSON lines only (`format: "jsonl"`): each line's object, one at a time, whatever the file's size. */
  objects(): AsyncIterable<T>;
}

/**
 * `/v1/exports`: every object a list's filters select, streamed as CSV (the default) or JSON lines. Retried like
 * any call until the answer's headers arrive; the body is then read at your pace (no timeout; `signal` aborts).
 */
export class Exports {
  constructor(private readonly http: Transport) {}

  payments(params: ExportParams<"exportPayments"> = {}, options?: RequestOptions) {
    return this.download<Payment>("payments", params, options);
  }

  payouts(params: ExportParams<"exportPayouts"> = {}, options?: RequestOptions) {
    return this.download<Payout>("payouts", params, options);
  }

  refunds(params: ExportParams<"exportRefunds"> = {}, options?: RequestOptions) {
    return this.download<Refund>("refunds", params, options);
  }

  balanceTransactions(params: ExportParams<"exportBalanceTransactions"> = {}, options?: RequestOptions) {
    return this.download<BalanceTransaction>("balance_transactions", params, options);
  }

  private async download<T>(
    resource: string,
    params: { format?: "csv" | "jsonl" },
    options?: RequestOptions,
  ): Promise<ExportFile<T>> {
    const jsonl = params.format === "jsonl";
    const response = await this.http.download(
      { method: "GET", path: `/v1/exports/${resource}`, query: params, options },
      jsonl ? "application/x-ndjson" : "text/csv",
    );
    const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    return {
      filename: /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? null,
      contentType: response.headers.get("content-type") ?? "",
      requestId: response.headers.get("request-id"),
      body,
      text: () => new Response(body).text(),
      objects: () => {
        if (!jsonl) throw new TypeError('objects() reads JSON lines: export with { format: "jsonl" }.');
        return jsonLines<T>(body);
      },
    };
  }
}

async function* jsonLines<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line) yield JSON.parse(line) as T;
  }
  rest += decoder.decode();
  if (rest) yield JSON.parse(rest) as T;
}
