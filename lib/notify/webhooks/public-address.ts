import net from "node:net";

// Every range that is not the public Internet: private, loopback, link-local (incl. cloud metadata
// 169.254.169.254), CGNAT (incl. 100.100.100.200), "this network", benchmarking, documentation,
// multicast, reserved and broadcast; for IPv6 also ULA (incl. fd00:ec2::254), link/site-local,
// IPv4-mapped/translated forms (checked as refused outright) and discard/documentation prefixes.
// Two lists: a BlockList checks IPv4 addresses against IPv6 rules too (as IPv4-mapped), so one list with
// ::ffff:0:0/96 in it would refuse every IPv4 address.
const blockedV4 = new net.BlockList();
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
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blockedV6.addSubnet(addr, prefix, "ipv6");

/** True only for a routable public unicast address. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return family === 4 ? !blockedV4.check(address, "ipv4") : !blockedV6.check(address, "ipv6");
}
