/**
 * What a session listing shows of the device a session began on: a short label of its browser
 * ("Chrome on macOS") and its network (`rate-limit/client-address.ts` `addressPrefix`). The full
 * User-Agent is not kept: the label is all a person needs to recognise a device, and it is bounded.
 *
 * @module session/device
 */

/** Browsers, most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari". */
const browsers: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  // Headless Chromium ("HeadlessChrome/…") is Chrome too, as the audit trail (`audit/client.ts`) names it.
  [/\b(?:Headless)?(?:Chrome|Chromium|CriOS)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Systems, most specific first: Android says "Linux", iOS says "like Mac OS X". */
const systems: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, "Android"],
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** The longest User-Agent looked at: a longer header is cut, so matching stays cheap whatever a client sends. */
const MAX_USER_AGENT_LENGTH = 512;

/**
 * A short label of a User-Agent: `"Chrome on macOS"`, `"Firefox"`, `"Android device"`; `null` when the
 * header is absent or names no known browser or system.
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const text = userAgent.slice(0, MAX_USER_AGENT_LENGTH);
  const browser = browsers.find(([pattern]) => pattern.test(text))?.[1];
  const system = systems.find(([pattern]) => pattern.test(text))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  return system ? `${system} device` : null;
}
