import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/platform/config/env";
import { sendWebhook } from "@/lib/notify/webhooks/send-webhook";
import { verifySignature } from "../helpers/webhook-receiver";

// A real HTTPS receiver with a self-signed certificate for "hooks.receiver.test", trusted
// through WEBHOOKS_CA_FILE; the name resolves (by injection) to loopback, so the sandbox switch applies.
let dir: string;
let server: https.Server;
let port: number;
const received: { body: string; signature: string }[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "usdt-tls-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=hooks.receiver.test",
      "-addext",
      "subjectAltName=DNS:hooks.receiver.test",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  server = https.createServer(
    { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          body: Buffer.concat(chunks).toString("utf8"),
          signature: String(req.headers["service-signature"]),
        });
        res.writeHead(204).end();
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  port = (server.address() as { port: number }).port;
  process.env.WEBHOOKS_CA_FILE = path.join(dir, "cert.pem");
  resetConfig();
});

afterAll(async () => {
  delete process.env.WEBHOOKS_CA_FILE;
  resetConfig();
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const resolve = async () => ["127.0.0.1"];

describe("HTTPS delivery", () => {
  it("signs and POSTs over TLS to the pinned address, verifying the certificate for the URL's host name", async () => {
    const body = JSON.stringify({ id: "evt_tls", object: "event" });
    const result = await sendWebhook({
      url: `https://hooks.receiver.test:${port}/hook`,
      body,
      secret: "whsec_tls",
      allowPrivate: true,
      resolve,
    });
    expect(result).toMatchObject({ success: true, statusCode: 204, error: null });
    expect(received.at(-1)!.body).toBe(body);
    expect(verifySignature(received.at(-1)!.signature, body, "whsec_tls")).toBe(true);
  });

  it("fails when the certificate does not match the host name", async () => {
    const before = received.length;
    const result = await sendWebhook({
      url: `https://other.receiver.test:${port}/hook`,
      body: "{}",
      secret: "whsec_tls",
      allowPrivate: true,
      resolve,
    });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/altnames|certificate|Hostname/i);
    expect(received.length).toBe(before);
  });
});
