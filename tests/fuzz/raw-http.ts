import net from "node:net";

/** A request exactly as it goes on the wire: no URL normalisation, any method token, any header bytes. */
export interface RawRequest {
  method: string;
  /** The request target, sent byte for byte (latin1). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  /** Lower-cased names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
  /** An event stream was cut after its headers (it never ends by itself). */
  streamed: boolean;
}

const TIMEOUT_MS = 20_000;

/** One request on its own connection (Connection: close), read to the end. */
export function sendRaw(host: string, port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no response within ${TIMEOUT_MS} ms`))), TIMEOUT_MS);
    socket.on("connect", () => {
      const body = req.body ?? Buffer.alloc(0);
      const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${host}:${port}`, "Connection: close"];
      for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
      if (body.length > 0 || ["POST", "PUT", "PATCH"].includes(req.method.toUpperCase()))
        lines.push(`Content-Length: ${body.length}`);
      socket.write(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]));
    });
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      const head = parseHead(Buffer.concat(chunks));
      if (head && /text\/event-stream/i.test(head.headers["content-type"] ?? ""))
        finish(() => resolve({ ...head, body: Buffer.alloc(0), streamed: true }));
    });
    // A server that answers before reading the whole request may reset the connection after its answer.
    socket.on("error", (err) => {
      const head = parseHead(Buffer.concat(chunks));
      if (!head) return finish(() => reject(err));
      const body = Buffer.concat(chunks).subarray(head.bodyStart);
      finish(() => resolve({ status: head.status, headers: head.headers, body, streamed: false }));
    });
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const head = parseHead(all);
      if (!head)
        return finish(() => reject(new Error(`connection closed after ${all.length} bytes, no response head`)));
      const rawBody = all.subarray(head.bodyStart);
      const body = /chunked/i.test(head.headers["transfer-encoding"] ?? "") ? dechunk(rawBody) : rawBody;
      finish(() => resolve({ status: head.status, headers: head.headers, body, streamed: false }));
    });
  });
}

function parseHead(buf: Buffer) {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, bodyStart: end + 4 };
}

function dechunk(buf: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const lineEnd = buf.indexOf("\r\n", pos);
    if (lineEnd < 0) break;
    const size = Number.parseInt(buf.subarray(pos, lineEnd).toString("latin1"), 16);
    if (!size) break;
    out.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/**
 * The request as one JSON line that sendRaw (tests/fuzz/raw-http.ts) sends again as it was; a body
 * longer than 600 bytes is cut, with its full length given.
 */
export function replayable(req: RawRequest): string {
  const body = req.body ?? Buffer.alloc(0);
  const text = body.toString("utf8");
  const exact = Buffer.from(text, "utf8").equals(body);
  return JSON.stringify({
    method: req.method,
    target: req.target,
    headers: req.headers,
    ...(exact ? { body: text.slice(0, 600) } : { bodyBase64: body.subarray(0, 600).toString("base64") }),
    ...(body.length > 600 ? { bodyLength: body.length } : {}),
  });
}
