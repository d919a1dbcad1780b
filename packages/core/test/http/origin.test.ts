/**
 * Which origin authlib believes, stated directly on `http/origin.ts` (no network, no database) and, for
 * the per-request context built from it (`http/request-context.ts`), through `Auth()` with a credentials
 * provider. The attacker walk-through against real services is `forged-origin.test.ts`; this file is the fast
 * statement of the same rules, exact messages included (operators read them in their logs).
 */
import { describe, expect, it } from "vitest";
import { InvalidOriginConfig, UntrustedHost } from "../../src/errors.js";
import {
  canonicalOrigin,
  checkOriginConfig,
  compileHostPattern,
  isAllowedOrigin,
  isTrustedHost,
  resolveOrigin,
  shouldWarnUnrestrictedTrustHost,
} from "../../src/http/origin.js";
import { Auth } from "../../src/kernel/auth.js";
import Credentials from "../../src/providers/credentials.js";
import { skipCSRFCheck } from "../../src/symbols.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";

const secret = "origin-testsuite-secret-0123456789abcdef";
const UPSTREAM = "http://localhost:3000";

/** The origin authlib believes for a request to `UPSTREAM` (or `target`) carrying `headers`. */
function originFor(
  config: Parameters<typeof resolveOrigin>[1],
  headers: Array<[string, string]> = [],
  target = `${UPSTREAM}/auth/session`,
) {
  const request = new Request(target, { headers });
  return resolveOrigin(request, config, new URL(target));
}

/** The error `fn` throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("host patterns", () => {
  const trusted = (pattern: string, target: string) => isTrustedHost(new URL(target), [pattern]);

  it("a pattern without a port matches only the scheme's default port, for http as for https", () => {
    expect(trusted("app.example.com", "http://app.example.com")).toBe(true);
    expect(trusted("app.example.com", "http://app.example.com:80")).toBe(true);
    expect(trusted("app.example.com", "http://app.example.com:443")).toBe(false);
    expect(trusted("app.example.com", "https://app.example.com:80")).toBe(false);
    expect(trusted("app.example.com", "http://app.example.com:8080")).toBe(false);
  });

  it("a pattern with a port matches that port only", () => {
    expect(trusted("app.example.com:8443", "https://app.example.com:8443")).toBe(true);
    expect(trusted("app.example.com:8443", "https://app.example.com")).toBe(false);
    expect(trusted("app.example.com:443", "https://app.example.com")).toBe(true);
    expect(trusted("app.example.com:1", "http://app.example.com:1")).toBe(true);
    expect(trusted("app.example.com:65535", "http://app.example.com:65535")).toBe(true);
  });

  it("an exact host pattern matches the whole host name, dots literally", () => {
    expect(trusted("app.example.com", "https://appxexample.com")).toBe(false);
    expect(trusted("app.example.com", "https://xapp.example.com")).toBe(false);
    expect(trusted("app.example.com", "https://app.example.comx")).toBe(false);
    expect(trusted("a-b.example.com", "https://a-b.example.com")).toBe(true);
    expect(trusted("[::1]", "http://[::1]")).toBe(true);
    expect(trusted("[::1]:3000", "http://[::2]:3000")).toBe(false);
  });

  it("a wildcard matches one or more letters, digits or dashes of one label, and the fixed parts literally", () => {
    expect(trusted("*.preview.example", "https://a.preview.example")).toBe(true);
    expect(trusted("*.preview.example", "https://pr-1.preview.example")).toBe(true);
    expect(trusted("*.preview.example", "https://.preview.example")).toBe(false);
    expect(trusted("*.preview.example", "https://pr-1xpreview.example")).toBe(false);
    expect(trusted("*.preview.example", "https://pr-1.previewxexample")).toBe(false);
    expect(trusted("*.preview.example", "https://x.pr-1.preview.example")).toBe(false);
    expect(trusted("*.preview.example", "https://pr-1.preview.example.evil")).toBe(false);
    expect(trusted("*.preview.example:8443", "https://pr-1.preview.example:8443")).toBe(true);
    expect(trusted("*.preview.example:8443", "https://pr-1.preview.example")).toBe(false);
    expect(trusted("pr-*.preview.example", "https://pr-7.preview.example")).toBe(true);
    expect(trusted("pr-*.preview.example", "https://qr-7.preview.example")).toBe(false);
    expect(trusted("pr-*.preview.example", "https://xpr-7.preview.example")).toBe(false);
    expect(trusted("*-team.preview.example", "https://pr-1-team.preview.example")).toBe(true);
    expect(trusted("*-team.preview.example", "https://pr-1-teamx.preview.example")).toBe(false);
    expect(trusted("*-team.preview.example", "https://pr-1xteam.preview.example")).toBe(false);
    expect(trusted("*.a-b.example", "https://x.a-b.example")).toBe(true);
  });

  it("one matching pattern of several is enough; none matching refuses", () => {
    expect(isTrustedHost(new URL("https://b.example.com"), ["a.example.com", "b.example.com"])).toBe(true);
    expect(isTrustedHost(new URL("https://c.example.com"), ["a.example.com", "b.example.com"])).toBe(false);
    expect(isTrustedHost(new URL("https://a.example.com"), [])).toBe(false);
  });

  it("a pattern is compiled once and answers the same every time", () => {
    const url = new URL("https://pr-3.cache.example.com");
    expect(isTrustedHost(url, ["*.cache.example.com"])).toBe(true);
    expect(isTrustedHost(url, ["*.cache.example.com"])).toBe(true);
    expect(isTrustedHost(new URL("https://cache.example.com"), ["*.cache.example.com"])).toBe(false);
  });

  it("compileHostPattern keeps the explicit port, and none for the default", () => {
    expect(compileHostPattern("app.example.com:8443").port).toBe("8443");
    expect(compileHostPattern("app.example.com").port).toBeUndefined();
    expect(compileHostPattern("*.preview.example:9000").port).toBe("9000");
  });

  it.each<[string, string]>([
    ["App.example.com", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["app.example.com:", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["app.example.com:123456", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["x app.example.com", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["app.example.com x", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["[::g]", "use lower-case host[:port], e.g. app.example.com or *.preview.example.com:8443"],
    ["app.example.com:0", "the port is out of range"],
    ["app.example.com:65536", "the port is out of range"],
    ["1.1.1.256", "the host is not a valid host name"],
    ["xn--a", "the host is not a valid host name"],
    ["0x7f.1", "write the host as a browser would (lower-case, punycode)"],
    ["a.*.example.com", "`*` may appear once, in the leftmost label only"],
    ["**.example.com", "`*` may appear once, in the leftmost label only"],
    ["*.*.example.com", "`*` may appear once, in the leftmost label only"],
    ["*.example", "a wildcard needs at least two labels after it"],
    ["*", "a wildcard needs at least two labels after it"],
    ["*..example", "labels may only hold a-z, 0-9 and -"],
    ["*.a..example", "labels may only hold a-z, 0-9 and -"],
    ["*.a.example.", "labels may only hold a-z, 0-9 and -"],
  ])("refuses the host pattern %j: %s", (pattern, why) => {
    const error = thrown(() => compileHostPattern(pattern));
    expect(error).toBeInstanceOf(InvalidOriginConfig);
    expect(error.message).toBe(`The trusted host pattern ${JSON.stringify(pattern)} is not valid: ${why}.`);
  });

  it("names the setting it checks, and quotes at most 200 characters of the value", () => {
    const long = `${"a".repeat(300)}:0`;
    expect(thrown(() => compileHostPattern(long, "The X")).message).toBe(
      `The X ${JSON.stringify("a".repeat(200))} is not valid: the port is out of range.`,
    );
  });

  it("accepts the valid forms", () => {
    for (const pattern of [
      "app.example.com",
      "localhost:3000",
      "[::1]:3000",
      "127.0.0.1",
      "*.preview.example",
      "pr-*.a.b",
      "*-x.a.b:65535",
    ]) {
      expect(() => compileHostPattern(pattern)).not.toThrow();
    }
  });
});

describe("origin patterns (redirect proxy targets)", () => {
  const allowed = (target: string, patterns: string[]) => isAllowedOrigin(new URL(target), patterns);

  it("compares scheme, host and port", () => {
    expect(allowed("https://pr-1-team.preview.example/cb", ["https://*-team.preview.example"])).toBe(true);
    expect(allowed("https://pr-1-team.preview.example/cb", ["https://*-team.preview.example/"])).toBe(true);
    expect(allowed("http://pr-1-team.preview.example/cb", ["https://*-team.preview.example"])).toBe(false);
    expect(allowed("http://localhost:4000/cb", ["http://localhost:4000"])).toBe(true);
    expect(allowed("https://localhost:4000/cb", ["http://localhost:4000"])).toBe(false);
    expect(allowed("http://localhost:4001/cb", ["http://localhost:4000"])).toBe(false);
    expect(allowed("http://other:4000/cb", ["http://localhost:4000"])).toBe(false);
    expect(allowed("http://localhost:4000/cb", ["https://x.example", "http://localhost:4000"])).toBe(true);
    expect(allowed("http://localhost:4000/cb", [])).toBe(false);
  });

  it.each([
    ["*-team.preview.example", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    ["https://app.example/path", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    ["https://app.example?x", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    ["ftp://app.example", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    [" https://app.example", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    ["https://app.example/ ", "use scheme://host[:port], e.g. https://*-team.preview.example"],
    ["https://", "use scheme://host[:port], e.g. https://*-team.preview.example"],
  ])("refuses the origin pattern %j", (pattern, why) => {
    const error = checkOriginConfig({ redirectProxyAllowedOrigins: [pattern] });
    expect(error).toBeInstanceOf(InvalidOriginConfig);
    expect(error?.message).toBe(`The redirect proxy target ${JSON.stringify(pattern)} is not valid: ${why}.`);
  });

  it("checks the host part with the host-pattern rules, named as a redirect proxy target", () => {
    const error = checkOriginConfig({ redirectProxyAllowedOrigins: ["https://*.example"] });
    expect(error?.message).toBe('The redirect proxy target "*.example" is not valid: a wildcard needs at least two labels after it.');
  });
});

describe("the canonical URL (url / AUTHLIB_URL)", () => {
  const what = "The canonical URL (url / AUTHLIB_URL)";

  it("gives its origin, whatever its path", () => {
    expect(canonicalOrigin("https://app.example.com/api/auth")).toBe("https://app.example.com");
    expect(canonicalOrigin("http://localhost:3000")).toBe("http://localhost:3000");
    expect(canonicalOrigin("https://app.example.com:443/")).toBe("https://app.example.com");
  });

  it.each([
    ["app.example.com", "it is not an absolute URL such as https://app.example.com"],
    ["ftp://app.example.com", "use http or https"],
    ["javascript:alert(1)", "use http or https"],
    ["https://user@app.example.com", "it holds credentials"],
    ["https://:pass@app.example.com", "it holds credentials"],
    ["https://app.example.com/?next=x", "it holds a query or fragment"],
    ["https://app.example.com/#x", "it holds a query or fragment"],
  ])("refuses %j: %s", (url, why) => {
    const error = thrown(() => canonicalOrigin(url));
    expect(error).toBeInstanceOf(InvalidOriginConfig);
    expect(error.message).toBe(`${what} ${JSON.stringify(url)} is not valid: ${why}.`);
  });
});

describe("checkOriginConfig: the start-up check of every origin setting", () => {
  it("is undefined for usable settings", () => {
    expect(checkOriginConfig({})).toBeUndefined();
    expect(
      checkOriginConfig({
        url: "https://app.example.com",
        trustedHosts: ["app.example.com"],
        redirectProxyAllowedOrigins: ["https://*-team.preview.example"],
        pages: { signIn: "/login", error: "https://app.example.com/oops", signOut: undefined },
      }),
    ).toBeUndefined();
  });

  it("reports a bad canonical URL, a bad trusted host, a bad proxy target", () => {
    expect(checkOriginConfig({ url: "nope" })?.message).toBe(
      'The canonical URL (url / AUTHLIB_URL) "nope" is not valid: it is not an absolute URL such as https://app.example.com.',
    );
    expect(checkOriginConfig({ trustedHosts: ["ok.example.com", "*.com"] })?.message).toBe(
      'The trusted host pattern "*.com" is not valid: a wildcard needs at least two labels after it.',
    );
    expect(checkOriginConfig({ redirectProxyAllowedOrigins: ["x"] })).toBeInstanceOf(InvalidOriginConfig);
  });

  it.each([
    ["https://other.example/login"],
    ["//other.example/login"],
    ["/\\other.example/login"],
    ["javascript:alert(1)"],
    ["https://user:pw@app.example.com/login"],
    ["https://user@app.example.com/login"],
    ["https://:pw@app.example.com/login"],
    ["http://app.example.com/login"],
  ])("refuses a custom page that leaves the app: %j", (page) => {
    const error = checkOriginConfig({ url: "https://app.example.com", pages: { signIn: page } });
    expect(error).toBeInstanceOf(InvalidOriginConfig);
    expect(error?.message).toBe(
      `pages.signIn ${JSON.stringify(page)} is not valid: use a path of the app (such as /login), or a URL on the origin of \`url\` (AUTHLIB_URL).`,
    );
  });

  it("refuses an absolute custom page when there is no canonical url", () => {
    expect(checkOriginConfig({ pages: { error: "https://app.example.com/oops" } })?.message).toBe(
      'pages.error "https://app.example.com/oops" is not valid: use a path of the app (such as /login), or a URL on the origin of `url` (AUTHLIB_URL).',
    );
    expect(checkOriginConfig({ pages: { error: "/oops" } })).toBeUndefined();
  });

  it("refuses an empty or non-string custom page, and one that is not a URL", () => {
    expect(checkOriginConfig({ pages: { signIn: "" } })?.message).toBe("pages.signIn must be a path of the app, such as /login.");
    expect(checkOriginConfig({ pages: { signIn: 42 as unknown as string } })?.message).toBe(
      "pages.signIn must be a path of the app, such as /login.",
    );
    expect(checkOriginConfig({ pages: { signIn: "http://[x" } })?.message).toBe('pages.signIn "http://[x" is not valid: it is not a URL.');
  });

  it("lets an unexpected failure through instead of calling it a configuration error", () => {
    const boom = new TypeError("boom");
    const trustedHosts = {
      [Symbol.iterator]() {
        throw boom;
      },
    } as unknown as string[];
    expect(() => checkOriginConfig({ trustedHosts })).toThrow(boom);
  });
});

describe("resolveOrigin: which origin is believed", () => {
  describe("with a canonical url, no header is read", () => {
    const config = { url: "https://app.example.com/auth", trustHost: true, trustedHosts: ["evil.example"] };
    it.each<[string, Array<[string, string]>]>([
      ["none", []],
      ["Host", [["host", "evil.example"]]],
      [
        "X-Forwarded-Host and -Proto",
        [
          ["x-forwarded-host", "evil.example"],
          ["x-forwarded-proto", "http"],
        ],
      ],
      ["Forwarded", [["forwarded", "host=evil.example;proto=http"]]],
    ])("%s", (_, headers) => {
      expect(originFor(config, headers)).toBe("https://app.example.com");
      expect(originFor(config, headers)).toBe("https://app.example.com");
    });

    it("a malformed url throws InvalidOriginConfig (every request), never the request's origin", () => {
      expect(() => originFor({ url: "not a url" })).toThrow(InvalidOriginConfig);
      expect(() => originFor({ url: "not a url" })).toThrow(InvalidOriginConfig);
    });

    it("many different canonical urls are all answered right (the memo forgets, it does not mix them up)", () => {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 40; i++) expect(originFor({ url: `https://app${i}.example.com/auth` })).toBe(`https://app${i}.example.com`);
      }
    });
  });

  describe("without url, trustHost or a list, the request URL's own origin", () => {
    it.each<[string, Array<[string, string]>]>([
      ["no header", []],
      [
        "a forged X-Forwarded-Host",
        [
          ["x-forwarded-host", "evil.example"],
          ["x-forwarded-proto", "https"],
        ],
      ],
    ])("%s", (_, headers) => {
      expect(originFor({}, headers)).toBe(UPSTREAM);
      expect(originFor({ trustHost: false, trustedHosts: [] }, headers)).toBe(UPSTREAM);
    });
  });

  describe("with trustHost and no list: the first forwarded value, else Host, else the URL", () => {
    const config = { trustHost: true };
    it.each<[string, Array<[string, string]>, string]>([
      ["nothing forwarded", [], UPSTREAM],
      ["an empty list is no list", [["x-forwarded-host", "dev.example"]], "http://dev.example"],
      ["X-Forwarded-Host", [["x-forwarded-host", "dev.example:8080"]], "http://dev.example:8080"],
      ["X-Forwarded-Proto", [["x-forwarded-proto", "https"]], "https://localhost:3000"],
      [
        "both",
        [
          ["x-forwarded-host", "dev.example"],
          ["x-forwarded-proto", "https"],
        ],
        "https://dev.example",
      ],
      [
        "the first of several, trimmed",
        [
          ["x-forwarded-host", " one.example , two.example"],
          ["x-forwarded-proto", " https , http"],
        ],
        "https://one.example",
      ],
      ["Host when nothing is forwarded", [["host", "dev.example:81"]], "http://dev.example:81"],
      [
        "X-Forwarded-Host over Host",
        [
          ["host", "host.example"],
          ["x-forwarded-host", "fwd.example"],
        ],
        "http://fwd.example",
      ],
      [
        "a malformed host falls back to the URL",
        [
          ["x-forwarded-host", "evil.example/path"],
          ["x-forwarded-proto", "https"],
        ],
        UPSTREAM,
      ],
      ["a host with userinfo falls back to the URL", [["x-forwarded-host", "a@evil.example"]], UPSTREAM],
      [
        "an unknown protocol falls back to the URL",
        [
          ["x-forwarded-host", "dev.example"],
          ["x-forwarded-proto", "javascript"],
        ],
        UPSTREAM,
      ],
      [
        "an upper-case protocol is not a protocol here",
        [
          ["x-forwarded-host", "dev.example"],
          ["x-forwarded-proto", "HTTPS"],
        ],
        UPSTREAM,
      ],
      ["an IPv6 host", [["x-forwarded-host", "[::1]:8080"]], "http://[::1]:8080"],
      ["a bad IPv6 host", [["x-forwarded-host", "[::g]"]], UPSTREAM],
      ["an out-of-range port", [["x-forwarded-host", "dev.example:99999"]], UPSTREAM],
      ["a port of six digits", [["x-forwarded-host", "dev.example:123456"]], UPSTREAM],
      ["an empty host", [["x-forwarded-host", ""]], UPSTREAM],
      ["a host the URL parser refuses", [["x-forwarded-host", "1.1.1.256"]], UPSTREAM],
      ["text before an IPv6 host", [["x-forwarded-host", "x[::1]"]], UPSTREAM],
      ["text after a host's port", [["x-forwarded-host", "dev.example:80x"]], UPSTREAM],
      ["text after an IPv6 host's port", [["x-forwarded-host", "[::1]:80x"]], UPSTREAM],
    ])("%s", (_, headers, expected) => {
      expect(
        originFor(headers.length === 1 && _ === "an empty list is no list" ? { trustHost: true, trustedHosts: [] } : config, headers),
      ).toBe(expected);
    });

    it("keeps the request URL's protocol when no X-Forwarded-Proto says otherwise", () => {
      expect(originFor(config, [["x-forwarded-host", "dev.example"]], "https://localhost/auth/session")).toBe("https://dev.example");
    });
  });

  describe("with a trusted-host list", () => {
    const config = { trustHost: true, trustedHosts: ["app.example.com", "*.preview.example", "localhost:3000"] };
    const refusal = (why: string) => `Refused a request: ${why}. Add the host to trustedHosts (AUTH_TRUSTED_HOSTS) if it is yours.`;

    it.each<[string, Array<[string, string]>, string]>([
      ["no header: the URL's host, when listed", [], UPSTREAM],
      [
        "a listed X-Forwarded-Host",
        [
          ["x-forwarded-host", "app.example.com"],
          ["x-forwarded-proto", "https"],
        ],
        "https://app.example.com",
      ],
      ["a listed Host", [["host", "app.example.com"]], "http://app.example.com"],
      [
        "X-Forwarded-Host over an unlisted Host",
        [
          ["host", "evil.example"],
          ["x-forwarded-host", "pr-1.preview.example"],
        ],
        "http://pr-1.preview.example",
      ],
      [
        "the same value twice, in any case, trimmed",
        [
          ["x-forwarded-host", "app.example.com , APP.example.com"],
          ["x-forwarded-proto", "HTTPS, https"],
        ],
        "https://app.example.com",
      ],
      ["the URL's protocol without X-Forwarded-Proto", [["x-forwarded-host", "app.example.com"]], "http://app.example.com"],
    ])("accepts %s", (_, headers, expected) => {
      expect(originFor(config, headers)).toBe(expected);
    });

    it("uses the URL's https protocol when nothing is forwarded", () => {
      expect(originFor({ trustedHosts: ["app.example.com"] }, [], "https://app.example.com/auth/session")).toBe("https://app.example.com");
    });

    it.each<[string, Array<[string, string]>, string]>([
      ["an unlisted X-Forwarded-Host", [["x-forwarded-host", "evil.example"]], 'its host "evil.example" is not a trusted host'],
      ["an unlisted Host", [["host", "evil.example:8080"]], 'its host "evil.example:8080" is not a trusted host'],
      [
        "a listed host on another port",
        [
          ["x-forwarded-host", "app.example.com:8443"],
          ["x-forwarded-proto", "https"],
        ],
        'its host "app.example.com:8443" is not a trusted host',
      ],
      [
        "two different hosts",
        [["x-forwarded-host", "app.example.com, evil.example"]],
        "its forwarded host or protocol headers hold several different values",
      ],
      [
        "two trusted hosts",
        [["x-forwarded-host", "app.example.com, pr-1.preview.example"]],
        "its forwarded host or protocol headers hold several different values",
      ],
      [
        "two different protocols",
        [
          ["x-forwarded-host", "app.example.com"],
          ["x-forwarded-proto", "https, http"],
        ],
        "its forwarded host or protocol headers hold several different values",
      ],
      ["a malformed host", [["x-forwarded-host", "app.example.com/evil"]], "its host or protocol header is malformed"],
      [
        "a non-http protocol",
        [
          ["x-forwarded-host", "app.example.com"],
          ["x-forwarded-proto", "ftp"],
        ],
        "its host or protocol header is malformed",
      ],
      ["an empty host", [["x-forwarded-host", ""]], "its host or protocol header is malformed"],
    ])("refuses %s with UntrustedHost", (_, headers, why) => {
      const error = thrown(() => originFor(config, headers));
      expect(error).toBeInstanceOf(UntrustedHost);
      expect(error.message).toBe(refusal(why));
    });

    it("refuses the request URL's own host when it is not listed", () => {
      const error = thrown(() => originFor({ trustedHosts: ["app.example.com"] }));
      expect(error).toBeInstanceOf(UntrustedHost);
      expect(error.message).toBe(refusal('its host "localhost:3000" is not a trusted host'));
    });

    it("is used without trustHost too", () => {
      expect(originFor({ trustedHosts: ["app.example.com"] }, [["x-forwarded-host", "app.example.com"]])).toBe("http://app.example.com");
    });
  });
});

describe("shouldWarnUnrestrictedTrustHost", () => {
  const base: AuthConfig = { providers: [] };
  it("only in production, with trustHost and neither url nor a trusted-host list", () => {
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true }, "production")).toBe(true);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true, trustedHosts: [] }, "production")).toBe(true);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true }, "development")).toBe(false);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true }, undefined)).toBe(false);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: false }, "production")).toBe(false);
    expect(shouldWarnUnrestrictedTrustHost({ ...base }, "production")).toBe(false);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true, url: "https://a.example" }, "production")).toBe(false);
    expect(shouldWarnUnrestrictedTrustHost({ ...base, trustHost: true, trustedHosts: ["a.example"] }, "production")).toBe(false);
  });
});

describe("the request context built from the origin (through Auth())", () => {
  const credentials = () =>
    Credentials({
      credentials: { username: { label: "Username" } },
      authorize: ({ username }) => (username === "ada" ? { id: "user-ada", name: "Ada", email: "ada@example.com" } : null),
    });
  const app = (extra: Partial<AuthConfig> = {}, origin = UPSTREAM) =>
    authClient({ secret, trustHost: true, providers: [credentials()], ...extra }, origin);

  it("gives every provider its sign-in and callback URL under the origin and base path", async () => {
    const client = app({ basePath: "/api/auth" });
    const response = await client.send("/api/auth/providers", {
      headers: [
        ["x-forwarded-host", "dev.example"],
        ["x-forwarded-proto", "https"],
      ],
    });
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "https://dev.example/api/auth/signin/credentials",
        callbackUrl: "https://dev.example/api/auth/callback/credentials",
      },
    });
  });

  it("uses prefixed Secure cookies on an https origin and plain ones on http, unless useSecureCookies says otherwise", async () => {
    const https = await app({}, "https://app.example.com").send("/auth/csrf");
    expect(https.setCookies.map((c) => c.name)).toEqual(["__Host-authlib.csrf-token"]);
    expect(https.setCookies[0]?.attributes.secure).toBe(true);
    const http = await app().send("/auth/csrf");
    expect(http.setCookies.map((c) => c.name)).toEqual(["authlib.csrf-token"]);
    expect(http.setCookies[0]?.attributes.secure).toBeUndefined();
    const forced = await app({ useSecureCookies: true }).send("/auth/csrf");
    expect(forced.setCookies.map((c) => c.name)).toEqual(["__Host-authlib.csrf-token"]);
    const off = await app({ useSecureCookies: false }, "https://app.example.com").send("/auth/csrf");
    expect(off.setCookies.map((c) => c.name)).toEqual(["authlib.csrf-token"]);
    // "https:" at the start of the origin, not anywhere in it.
    const lookalike = await app().send("/auth/csrf", { headers: [["x-forwarded-host", "https"]] });
    expect(lookalike.setCookies.map((c) => c.name)).toEqual(["authlib.csrf-token"]);
  });

  it("mints a CSRF token once: the cookie is set on the first request, then kept", async () => {
    const client = app();
    const first = await client.send("/auth/csrf");
    const { csrfToken } = (await first.json()) as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(first.setCookies.map((c) => c.name)).toEqual(["authlib.csrf-token"]);
    const second = await client.send("/auth/csrf");
    expect(((await second.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken);
    expect(second.setCookies).toEqual([]);
  });

  it("a route without CSRF needs sets no cookie and computes no token", async () => {
    const response = await app().send("/auth/providers");
    expect(response.setCookies).toEqual([]);
  });

  it("a credentials sign-in with the right token goes to the callbackUrl on the origin; without it, it is refused", async () => {
    const client = app();
    const csrfToken = await client.csrf();
    const ok = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada", callbackUrl: "/dashboard" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe(`${UPSTREAM}/dashboard`);
    expect((await client.session())?.user?.email).toBe("ada@example.com");

    const other = app();
    await other.csrf();
    const refused = await other.send("/auth/callback/credentials", { form: { csrfToken: "wrong", username: "ada" } });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe(`${UPSTREAM}/auth/signin?error=MissingCSRF`);
    expect(await other.session()).toBeNull();
  });

  it("a callback reads the CSRF cookie but never mints one", async () => {
    const client = app();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken: "x", username: "ada" } });
    expect(response.setCookies.map((c) => c.name)).not.toContain("authlib.csrf-token");
  });

  it("with skipCSRFCheck, a sign-in needs no token (on a route with and without a CSRF step)", async () => {
    const client = app({ skipCSRFCheck });
    const ok = await client.send("/auth/callback/credentials", { form: { username: "ada", callbackUrl: "/x" } });
    expect(ok.headers.get("location")).toBe(`${UPSTREAM}/x`);
    const session = await client.session();
    expect(session?.user?.email).toBe("ada@example.com");
    const update = await client.send("/auth/session", { json: { name: "B" } });
    expect(update.status).toBe(200);
  });

  it("without a callbackUrl, the callback goes to the origin's root", async () => {
    const client = app();
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/`);
  });

  it("the callbackUrl is resolved against the origin, from the body or the query, and off-origin ones fall back to the origin", async () => {
    const client = app();
    const csrfToken = await client.csrf();
    const fromQuery = await client.send("/auth/callback/credentials?callbackUrl=%2Fq", { form: { csrfToken, username: "ada" } });
    expect(fromQuery.headers.get("location")).toBe(`${UPSTREAM}/q`);
    const bodyWins = await client.send("/auth/callback/credentials?callbackUrl=%2Fq", {
      form: { csrfToken, username: "ada", callbackUrl: "/b" },
    });
    expect(bodyWins.headers.get("location")).toBe(`${UPSTREAM}/b`);
    const offOrigin = await client.send("/auth/callback/credentials", {
      form: { csrfToken, username: "ada", callbackUrl: "https://evil.example/x" },
    });
    expect(offOrigin.headers.get("location")).toBe(`${UPSTREAM}/`);
  });

  it("the redirect callback gets the callbackUrl and the origin as baseUrl", async () => {
    const calls: Array<{ url: string; baseUrl: string }> = [];
    const client = app({
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          calls.push({ url, baseUrl });
          return `${baseUrl}/chosen`;
        },
      },
    });
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      headers: [["x-forwarded-host", "dev.example"]],
      form: { csrfToken, username: "ada", callbackUrl: "/wanted" },
    });
    expect(calls[0]).toEqual({ url: "/wanted", baseUrl: "http://dev.example" });
    expect(response.headers.get("location")).toBe("http://dev.example/chosen");
  });

  it("remembers a callbackUrl in a cookie bound to the CSRF token, and follows it when the next step has none", async () => {
    const client = app();
    const page = await client.send("/auth/signin?callbackUrl=%2Fremembered");
    const names = page.setCookies.map((c) => c.name);
    expect(names).toContain("authlib.callback-url");
    expect(names).toContain("authlib.csrf-token");
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/remembered`);
  });

  it("the same callbackUrl again does not set the cookie again; a new one does", async () => {
    const client = app();
    await client.send("/auth/signin?callbackUrl=%2Fsame");
    const again = await client.send("/auth/signin?callbackUrl=%2Fsame");
    expect(again.setCookies).toEqual([]);
    const changed = await client.send("/auth/signin?callbackUrl=%2Fother");
    expect(changed.setCookies.map((c) => c.name)).toEqual(["authlib.callback-url"]);
  });

  it("a remembered callbackUrl still goes through the redirect callback", async () => {
    const seen: string[] = [];
    const client = app({
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          seen.push(url);
          return url.startsWith("/") ? `${baseUrl}${url}` : url.startsWith(baseUrl) ? url : baseUrl;
        },
      },
    });
    await client.send("/auth/signin?callbackUrl=%2Fremembered");
    const csrfToken = await client.csrf();
    seen.length = 0;
    const response = await client.send("/auth/callback/credentials", { form: { csrfToken, username: "ada" } });
    expect(seen).toEqual([`${UPSTREAM}/remembered`]);
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/remembered`);
  });

  it("a callbackUrl cookie this browser did not get from us is ignored, without asking the redirect callback", async () => {
    const asked: unknown[] = [];
    const errors: Error[] = [];
    const client = app({
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          asked.push(url);
          return baseUrl;
        },
      },
      logger: { error: (e) => void errors.push(e) },
    });
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/credentials", {
      headers: [["cookie", `${client.jar.header()}; authlib.callback-url=${encodeURIComponent("https://evil.example/")}`]],
      form: { csrfToken, username: "ada" },
    });
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/`);
    expect(asked).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a callbackUrl cookie bound to another browser's CSRF token is ignored", async () => {
    const victim = app();
    await victim.send("/auth/signin?callbackUrl=%2Fvictim");
    const sealed = victim.jar.get("authlib.callback-url")!;
    const attacker = app();
    const csrfToken = await attacker.csrf();
    const response = await attacker.send("/auth/callback/credentials", {
      headers: [["cookie", `${attacker.jar.header()}; authlib.callback-url=${encodeURIComponent(sealed)}`]],
      form: { csrfToken, username: "ada" },
    });
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/`);
  });

  it("without a CSRF cookie, a callbackUrl is used but not remembered", async () => {
    const response = await Auth(
      new Request(`${UPSTREAM}/auth/callback/credentials?callbackUrl=%2Fx`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=ada",
      }),
      { secret, trustHost: true, skipCSRFCheck, providers: [credentials()] },
    );
    expect(response.headers.get("location")).toBe(`${UPSTREAM}/x`);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("authlib.callback-url="))).toBe(false);
  });

  it("the sign-in page's forms post to the origin, for the provider asked", async () => {
    const client = app();
    const html = await (await client.send("/auth/signin", { headers: [["x-forwarded-host", "dev.example"]] })).text();
    expect(html).toContain('action="http://dev.example/auth/callback/credentials"');
  });

  it("an untrusted host gets 400 UntrustedHost, logged for the operator: the untrusted-host warning, the reason at debug", async () => {
    const lines: string[] = [];
    const response = await Auth(new Request(`${UPSTREAM}/auth/session`, { headers: { "x-forwarded-host": "evil.example" } }), {
      secret,
      trustedHosts: ["app.example.com"],
      providers: [credentials()],
      debug: true,
      logger: {
        error: (e) => void lines.push(`error ${e.message}`),
        warn: (code) => void lines.push(`warn ${code}`),
        debug: (m) => void lines.push(m),
      },
    });
    expect(response.status).toBe(400);
    expect(lines.filter((line) => line !== "warn debug-enabled")).toEqual([
      "warn untrusted-host",
      'UntrustedHost: Refused a request: its host "evil.example" is not a trusted host. Add the host to trustedHosts (AUTH_TRUSTED_HOSTS) if it is yours.',
    ]);
  });
});

describe("more of the same rules", () => {
  it("with trustHost alone, a forwarded host seen before (the origin is remembered per host) gets the same origin again", () => {
    // More hosts than are remembered, each asked twice in two passes, so the second pass meets evicted and kept ones.
    const hosts = Array.from({ length: 150 }, (_, i) => (i % 3 === 2 ? `bad host ${i}` : `h${i}.example:${3000 + i}`));
    const expected = (host: string, proto: string) => (host.startsWith("bad") ? "http://upstream.internal:3000" : `${proto}://${host}`);
    for (let pass = 0; pass < 2; pass++) {
      for (const [i, host] of hosts.entries()) {
        const proto = i % 2 === 0 ? "https" : "http";
        const headers: Array<[string, string]> = [
          ["x-forwarded-host", host],
          ["x-forwarded-proto", proto],
        ];
        expect(originFor({ trustHost: true }, headers, "http://upstream.internal:3000/auth/session")).toBe(expected(host, proto));
        // The same host under the other protocol is another answer, not the remembered one.
        const other = proto === "https" ? "http" : "https";
        expect(
          originFor({ trustHost: true }, [headers[0], ["x-forwarded-proto", other]], "http://upstream.internal:3000/auth/session"),
        ).toBe(expected(host, other));
      }
    }
    // A malformed protocol is never believed, however often it comes.
    for (let i = 0; i < 3; i++) {
      expect(
        originFor(
          { trustHost: true },
          [
            ["x-forwarded-host", "a.example"],
            ["x-forwarded-proto", "ftp"],
          ],
          "http://upstream.internal:3000/auth/session",
        ),
      ).toBe("http://upstream.internal:3000");
    }
  });

  it("an IPv6 host without a port is believed with trustHost, and checked against the list with a list", () => {
    expect(originFor({ trustHost: true }, [["x-forwarded-host", "[::1]"]])).toBe("http://[::1]");
    expect(
      originFor({ trustHost: true }, [
        ["x-forwarded-host", "[::1]"],
        ["x-forwarded-proto", "https"],
      ]),
    ).toBe("https://[::1]");
    expect(originFor({ trustedHosts: ["[::1]"] }, [["x-forwarded-host", "[::1]"]])).toBe("http://[::1]");
  });

  it("a route that needs no callback URL neither remembers one nor asks the redirect callback", async () => {
    const asked: string[] = [];
    const config: AuthConfig = {
      secret,
      trustHost: true,
      providers: [
        Credentials({ credentials: { username: { label: "Username" } }, authorize: () => ({ id: "u1", email: "u1@example.com" }) }),
      ],
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          asked.push(url);
          return baseUrl;
        },
      },
    };
    const client = authClient(config);
    const csrf = await client.send("/auth/csrf?callbackUrl=%2Fx");
    expect(csrf.setCookies.map((c) => c.name)).toEqual(["authlib.csrf-token"]);
    await client.send("/auth/session?callbackUrl=%2Fx");
    await client.send("/auth/providers?callbackUrl=%2Fx");
    expect(asked).toEqual([]);
  });

  it("the callback runs the provider it names, not the first one", async () => {
    const second = Credentials({
      id: "second",
      name: "Second",
      credentials: { username: { label: "Username" } },
      authorize: () => ({ id: "user-2", email: "second@example.com" }),
    });
    const first = Credentials({
      credentials: { username: { label: "Username" } },
      authorize: () => ({ id: "user-1", email: "first@example.com" }),
    });
    const client = authClient({ secret, trustHost: true, providers: [first, second] });
    const csrfToken = await client.csrf();
    const response = await client.send("/auth/callback/second", { form: { csrfToken, username: "x" } });
    expect(response.status).toBe(302);
    expect((await client.session())?.user?.email).toBe("second@example.com");
  });
});
