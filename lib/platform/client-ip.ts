import type { IncomingMessage } from "node:http";
import { isIP, isIPv4 } from "node:net";

/**
 * The client address used for per-IP limits. X-Forwarded-For is trusted only when the operator says a
 * proxy sits in front (TRUST_PROXY=true), and then only its right-most entry: the one that proxy added
 * (ignored unless it is an IP address).
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last && isIP(last)) return last;
  }
  return (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 tails included), or null. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip.toLowerCase().split("%")[0]!; // a zone id names an interface, not a client
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (v4) {
    const [a, b, c, d] = v4.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split("::");
  if (extra !== undefined) return null;
  const parse = (part: string | undefined) => (part ? part.split(":").map((h) => Number.parseInt(h, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The key per-IP limits count under. An IPv6 client usually holds a whole /64 (one customer line), so it
 * is keyed by that prefix rather than by each of its 2^64 addresses; an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`) counts as its IPv4 address.
 */
export function ipLimitKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const groups = isIP(ip.split("%")[0]!) === 6 ? ipv6Groups(ip) : null;
  if (!groups) return ip;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
