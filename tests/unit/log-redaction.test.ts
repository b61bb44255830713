import { describe, expect, it, vi } from "vitest";
import { log } from "@/lib/platform/log";
import { redactText } from "@/lib/platform/log-redaction";

const ALCHEMY = "https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789XyZaBcDeF012345";
const INFURA = "https://polygon-mainnet.infura.io/v3/0123456789abcdef0123456789abcdef";
const BASIC = "https://rpcuser:s3cretPass@bsc.example.net:8545/";
const QUERY = "https://api.trongrid.example/jsonrpc?apikey=tg-0123456789abcdef&x=1";

describe("log redaction", () => {
  it("strips credentials from URLs in any text: path keys, user-info, query values", () => {
    expect(redactText(`HTTP request failed. URL: ${ALCHEMY} Request body: {}`)).toBe(
      "HTTP request failed. URL: https://eth-mainnet.g.alchemy.com/v2/[redacted] Request body: {}",
    );
    expect(redactText(INFURA)).toBe("https://polygon-mainnet.infura.io/v3/[redacted]");
    expect(redactText(`connect ${BASIC} refused`)).toBe("connect https://[redacted]@bsc.example.net:8545/ refused");
    expect(redactText(QUERY)).toBe("https://api.trongrid.example/jsonrpc?apikey=[redacted]&x=[redacted]");
  });

  it("keeps what operators need: hosts, short paths, the service's own ids", () => {
    expect(redactText("https://hooks.shop.test/webhooks/usdt")).toBe("https://hooks.shop.test/webhooks/usdt");
    const checkout = "http://localhost:3000/checkout/pay_4f8KqZ1mN2pQ7rS9tU3vW5xY";
    expect(redactText(checkout)).toBe(checkout);
  });

  it("no logged line carries an RPC key, whether in the message, a field, an error or a nested object", () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      log.error(`scan failed at ${ALCHEMY}`, {
        error: new Error(`fetch failed: ${INFURA}`),
        detail: { rpc: BASIC, urls: [QUERY] },
        rpc_api_key: "plain-key-value",
      });
    } finally {
      spy.mockRestore();
    }
    const line = lines.join("");
    for (const secret of ["AbCdEf0123456789", "0123456789abcdef0123", "s3cretPass", "tg-0123456789", "plain-key-value"])
      expect(line).not.toContain(secret);
    expect(JSON.parse(line).detail.rpc).toBe("https://[redacted]@bsc.example.net:8545/");
  });
});
