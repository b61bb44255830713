import net from "node:net";

// Every range that is not the public Internet: private, loopback, link-local (incl. cloud metadata
// 169.254.169.254), CGNAT (incl. 100.100.100.200), "this network", benchmarking, documentation,
// multicast, reserved and broadcast. For IPv6 only global unicast (2000::/3) is public at all, which leaves
// out every form that embeds an IPv4 address outside it (IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96,
// SIIT's ::ffff:0:0:0/96, NAT64 64:ff9b::/96 and /48), ULA (incl. fd00:ec2::254), link/site-local, discard,
// multicast and SRv6 (5f00::/16); inside it, Teredo and the IETF's 2001::/23, documentation (2001:db8::/32,
// 3fff::/20) and 6to4 (2002::/16, whose tunnels reach the embedded IPv4) are refused too.
// Two lists: a BlockList checks IPv4 addresses against IPv6 rules too (as IPv4-mapped), so one list with
// ::ffff:0:0/96 in it would refuse every IPv4 address.
const blockedV4 = new net.BlockList();
const globalV6 = new net.BlockList();
globalV6.addSubnet("2000::", 3, "ipv6");
const blockedV6 = new net.BlockList();
for (const [addr, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blockedV4.addSubnet(addr, prefix, "ipv4");
for (const [addr, prefix] of [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
] as const)
  blockedV6.addSubnet(addr, prefix, "ipv6");

/** True only for a routable public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 4) return !blockedV4.check(address, "ipv4");
  return globalV6.check(address, "ipv6") && !blockedV6.check(address, "ipv6");
}
