/**
 * What an audit row says about the client: its network, not its address; its browser and OS, not its
 * user-agent header (which is close to a fingerprint).
 *
 * @module audit/client
 */

/** The address cut to its network: IPv4 /24 (`203.0.113.0/24`), IPv6 /48 (`2001:db8:1::/48`); `null` when unreadable. */
export function addressPrefix(address: string | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const value = mapped ? (mapped[1] as string) : address;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (v4) {
    const octets = v4.slice(1, 4).map(Number);
    if (octets.some((octet) => octet > 255) || Number(v4[4]) > 255) return null;
    return `${octets.join(".")}.0/24`;
  }
  const groups = expandIPv6(value.replace(/%.*$/, ""));
  return groups ? `${groups.slice(0, 3).join(":")}::/48` : null;
}

/** The eight groups of an IPv6 address (without leading zeros), or `null` when it is not one. */
function expandIPv6(address: string): string[] | null {
  if (!/^[0-9a-f:]+$/i.test(address) || address.split("::").length > 2) return null;
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}

/** Browser families, most specific first (Edge and Opera say "Chrome" too; Chrome says "Safari"). */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
  [/node|undici/i, "Node.js"],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/Android/, "Android"],
  [/iPhone|iPad|iPod/, "iOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux/, "Linux"],
];

/** `"<browser> on <OS>"` from a user-agent header, from closed lists; `"Other"` for the rest, `null` without one. */
export function userAgentLabel(header: string | null): string | null {
  if (!header) return null;
  const browser = BROWSERS.find(([pattern]) => pattern.test(header))?.[1] ?? "Other";
  const system = SYSTEMS.find(([pattern]) => pattern.test(header))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
