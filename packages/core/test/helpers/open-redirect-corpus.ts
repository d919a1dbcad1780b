/**
 * The open-redirect corpus: URLs an attacker puts wherever authlib turns input into a redirect (callbackUrl
 * in the query, the body or the cookie, Qwik's `redirectTo`, `pages`, email links, the redirect proxy's
 * state). Every payload must end on the app's own origin, or be refused; none may leave it.
 *
 * Shared by every open-redirect test (core and the Qwik package), so a payload added here is tried
 * against every input at once. {@link expectStaysOnOrigin} is the one definition of "stays on the origin"
 * that those tests assert.
 */
import { expect } from "vitest";

/** The attacker's host in the corpus. */
export const EVIL_HOST = "evil.example";

const schemes = [
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "javascript://%0aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "vbscript:msgbox(1)",
  "file:///etc/passwd",
  "ftp://evil.example",
  "blob:https://evil.example/0b1c",
  "ws://evil.example/",
];

const absolute = [
  "https://evil.example",
  "https://evil.example/path",
  "HTTPS://evil.example",
  "hTtP://evil.example",
  "http://localhost:3000.evil.example",
  "http://localhost:3001/",
  "https://localhost:3000/",
  "http://localhost:80/",
  "http://localhost:3000:80/",
  "http://evil.example:3000/",
  "http://evil.example#@localhost:3000",
  "http://evil.example?@localhost:3000/",
  "http://evil.example\\@localhost:3000/",
];

const userinfo = [
  "http://localhost:3000@evil.example",
  "https://localhost:3000@evil.example",
  "http://user:pass@localhost:3000/",
  "http://localhost%2F@evil.example/",
  "http://localhost:3000%40evil.example/",
];

const protocolRelative = [
  "//evil.example",
  "//evil.example/path",
  "///evil.example",
  "////evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/.//evil.example/x",
  "/%2e//evil.example/x",
  "/./\\evil.example/x",
  "https:evil.example",
  "http:evil.example",
  "https:/evil.example",
  "https:\\\\evil.example",
];

const whitespaceAndControls = [
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r/evil.example",
  "\t//evil.example",
  " //evil.example",
  "\n//evil.example",
  "\u0000//evil.example",
  "//evil.example\u0000.localhost:3000",
  "\u2028//evil.example",
];

const encoded = [
  "//evil%2eexample",
  "/%2F/evil.example",
  "%2F%2Fevil.example",
  "/%5Cevil.example",
  "%5C%5Cevil.example",
  "/%252F%252Fevil.example",
  "%252F%252Fevil.example",
  "https%3A%2F%2Fevil.example",
  "%68ttps://evil.example",
  "http://evil%2Eexample/",
];

const lookalikes = [
  "//evil\u3002example",
  "//evil\uFF0Eexample",
  "https://\uFF45\uFF56\uFF49\uFF4C.example",
  "https://evil.example\uFF0F@localhost:3000",
  "//evil.example.",
  "https://evil.example.:443/",
];

const addresses = [
  "//127.0.0.1",
  "http://127.0.0.1:3000/",
  "http://2130706433/",
  "http://0x7f.1/",
  "http://[::1]:3000/",
  "http://[::ffff:127.0.0.1]/",
  "//[::1]",
];

const long = [`https://evil.example/${"a".repeat(6000)}`, `//evil.example/${"%2F".repeat(2000)}`];

/** Every payload of the corpus, distinct. */
export const OPEN_REDIRECT_PAYLOADS: readonly string[] = [
  ...new Set([
    ...schemes,
    ...absolute,
    ...userinfo,
    ...protocolRelative,
    ...whitespaceAndControls,
    ...encoded,
    ...lookalikes,
    ...addresses,
    ...long,
  ]),
];

/** A short, printable name of a payload for test titles (long ones are cut, controls escaped). */
export function payloadName(payload: string): string {
  const printable = JSON.stringify(payload);
  return printable.length > 60 ? `${printable.slice(0, 40)}…(${payload.length} chars)` : printable;
}

/** True when `value` holds a control character or whitespace, which a browser strips from, or misreads in, a Location. */
function hasControlOrSpace(value: string): boolean {
  return [...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f);
}

/**
 * Asserts that `location` (a `Location` header or a URL in a response body) keeps the browser on `origin`:
 * absolute on exactly that origin and without credentials, or a path a browser resolves there (never
 * `//host` or `/\host`), and free of characters a browser would strip before resolving it.
 */
export function expectStaysOnOrigin(location: string | null | undefined, origin: string): void {
  expect(location, "a redirect target").toBeTypeOf("string");
  const value = location as string;
  expect(hasControlOrSpace(value), `no control characters or spaces in ${JSON.stringify(value.slice(0, 80))}`).toBe(false);
  if (!/^https?:\/\//i.test(value)) expect(value, "a relative target is a path, not protocol-relative").toMatch(/^\/(?![/\\])/);
  const url = new URL(value, origin);
  expect(url.origin).toBe(origin);
  expect(url.username + url.password).toBe("");
}
