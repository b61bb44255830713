import http from "node:http";
import { writePlainPage } from "./edge-responses";

// The pages' forms (a network choice, the sandbox button) post a few hundred bytes.
const MAX_FORM_BYTES = 64 * 1024;

export function isMultipartPost(req: http.IncomingMessage): boolean {
  return req.method === "POST" && /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
}

/**
 * A multipart POST to a hosted page is a server action (with or without the page's scripts). Next answers
 * a body it cannot parse as multipart with a 500, so the server reads the body first (64 KiB at most),
 * refuses a malformed one with a 400 page, and hands Next an identical request carrying the same bytes.
 * Returns that request, or null when it has answered.
 */
export async function vetMultipartPagePost(
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<http.IncomingMessage | null> {
  const refuse = (text: string) => {
    writePlainPage(res, 400, "Bad request", text);
    return null;
  };
  if (Number(req.headers["content-length"] ?? 0) > MAX_FORM_BYTES) return refuse("This form is too large.");
  // Listeners rather than an async iterator, which would destroy the request (and its socket) when done.
  const body = await new Promise<Buffer | null>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      resolve(null);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
  if (!body) return refuse("This form is too large.");
  try {
    await new Response(new Uint8Array(body), { headers: { "content-type": req.headers["content-type"]! } }).formData();
  } catch {
    return refuse("This form could not be read.");
  }
  const copy = new http.IncomingMessage(req.socket);
  Object.assign(copy, {
    method: req.method,
    url: req.url,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    // A message not marked complete destroys the shared socket when it is itself destroyed after its end.
    complete: true,
  });
  copy.push(body);
  copy.push(null);
  return copy;
}
