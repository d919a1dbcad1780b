/**
 * Whether an IP address is on the public internet: every special-purpose range of the IANA registries
 * (loopback, private, link-local, unique-local, CGNAT, multicast, unspecified, reserved, documentation,
 * IPv4-mapped and translated IPv6) is not. What the public fetch (`http/public-fetch.ts`) checks each
 * resolved address against.
 *
 * @module http/public-address
 */

/** The four bytes of a dotted-quad IPv4 address, or `null`. */
export function ipv4Bytes(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)) return null;
  return parts.map(Number);
}

/** The eight 16-bit groups of an IPv6 address (`::` and a dotted-quad tail allowed, no zone), or `null`. */
export function ipv6Groups(address: string): number[] | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(address)) return null;
  let text = address;
  if (text.includes(".")) {
    // A dotted-quad tail (`::ffff:127.0.0.1`) is the last two groups.
    const lastColon = text.lastIndexOf(":");
    const quad = lastColon < 0 ? null : ipv4Bytes(text.slice(lastColon + 1));
    if (!quad) return null;
    const [a, b, c, d] = quad as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groupsOf(halves[0] as string);
  const rest = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  if (![...head, ...rest].every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  const zeros = Array.from({ length: 8 - known }, () => 0);
  return [...head, ...zeros.map(String), ...rest].map((group) => Number.parseInt(group, 16));
}

/** IPv4 ranges that are not the public internet (IANA special-purpose registry): [first octets, prefix length]. */
const IPV4_NOT_PUBLIC: ReadonlyArray<readonly [number[], number]> = [
  [[0], 8], // "this network", 0.0.0.0
  [[10], 8], // private
  [[100, 64], 10], // CGNAT shared space
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata at 169.254.169.254)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay anycast
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, and the broadcast address
];

function inIpv4Range(bytes: readonly number[], [prefix, length]: readonly [number[], number]): boolean {
  let bits = length;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] as number) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function isPublicIpv4(bytes: readonly number[]): boolean {
  return !IPV4_NOT_PUBLIC.some((range) => inIpv4Range(bytes, range));
}

/**
 * IPv6: only global unicast (`2000::/3`) is public, less its special blocks: `2001::/23` (IETF protocol
 * assignments: Teredo, benchmarking, ORCHID…), `2001:db8::/32` (documentation), `2002::/16` (6to4, an IPv4
 * address inside) and `3fff::/20` (documentation). Everything outside `2000::/3` is refused with it:
 * unspecified, loopback, IPv4-mapped and -compatible, NAT64 (`64:ff9b::/96`), discard, unique-local,
 * link-local, site-local, multicast.
 */
function isPublicIpv6(groups: readonly number[]): boolean {
  const [first, second] = groups as [number, number];
  if ((first & 0xe000) !== 0x2000) return false;
  if (first === 0x2001 && second < 0x0200) return false;
  if (first === 0x2001 && second === 0x0db8) return false;
  if (first === 0x2002) return false;
  if (first === 0x3fff && second < 0x1000) return false;
  return true;
}

/**
 * True when `address` (an IPv4 dotted quad or an IPv6 address, as a resolver gives them) is on the public
 * internet; `false` for every special-purpose range (see the module), and for anything that is no address.
 */
export function isPublicAddress(address: string): boolean {
  const v4 = ipv4Bytes(address);
  if (v4) return isPublicIpv4(v4);
  const v6 = ipv6Groups(address);
  return v6 !== null && isPublicIpv6(v6);
}
