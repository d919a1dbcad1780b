/**
 * The client address the per-client limits count by. It comes from the connection (what the framework
 * integration passes as `Auth(request, config, { clientAddress })`) or from the app's own
 * `rateLimit.clientAddress` function, never from a request header on its own: a client chooses its
 * `X-Forwarded-For`, so an attacker rotating it would get a fresh bucket per request.
 *
 * Addresses are grouped the way they are handed out: an IPv4-mapped IPv6 address counts as its IPv4
 * address, and an IPv6 address counts by its /64 network (one host usually holds a whole /64, so counting
 * single IPv6 addresses would give it 2^64 buckets).
 *
 * @module rate-limit/client-address
 */

/** The default `rateLimit.clientAddress`: the connection address, and nothing from the request's headers. */
export function defaultClientAddress(_request: Request, connectionAddress: string | undefined): string | undefined {
  return connectionAddress;
}

/** The eight 16-bit groups of an IPv6 address (without zone), or `undefined` when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const part = (text: string | undefined) => (text ? text.split(":") : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  // A trailing dotted IPv4 address stands for two groups.
  const last = tail.length > 0 ? tail : head;
  const dotted = last.at(-1);
  if (dotted?.includes(".")) {
    const bytes = dotted.split(".").map(Number);
    if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) return undefined;
    const [a, b, c, d] = bytes as [number, number, number, number];
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * The bucket a client address counts in: an IPv4 address as it is, an IPv4-mapped IPv6 address as its
 * IPv4 address, an IPv6 address as its /64 network (`2001:db8:1:2::/64`), anything else (an app's own
 * notion of a client) as given.
 */
export function clientBucket(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const withoutZone = bare.split("%")[0] as string;
  if (!withoutZone.includes(":")) return trimmed;
  const groups = ipv6Groups(withoutZone);
  if (!groups) return trimmed;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const high = groups[6] as number;
    const low = groups[7] as number;
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The network a client address belongs to, as session listings show it: an IPv4 address (or an
 * IPv4-mapped IPv6 one) as its /24 (`203.0.113.0/24`), an IPv6 address as its /48 (`2001:db8:1::/48`).
 * Enough to tell "my home" from "another country", not enough to find the person. `null` for anything
 * that is not an IP address (an app's own notion of a client is not shown).
 */
export function addressPrefix(address: string): string | null {
  const trimmed = address.trim().toLowerCase();
  const bare = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  const withoutZone = bare.split("%")[0] as string;
  if (!withoutZone.includes(":")) return ipv4Prefix(withoutZone);
  const groups = ipv6Groups(withoutZone);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const high = groups[6] as number;
    const low = groups[7] as number;
    return `${high >> 8}.${high & 255}.${low >> 8}.0/24`;
  }
  return `${groups
    .slice(0, 3)
    .map((g) => g.toString(16))
    .join(":")}::/48`;
}

function ipv4Prefix(address: string): string | null {
  const parts = address.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return `${Number(parts[0])}.${Number(parts[1])}.${Number(parts[2])}.0/24`;
}
