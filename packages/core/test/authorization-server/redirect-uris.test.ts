/**
 * Redirect URIs (features/authorization-server/redirect-uris.ts): exact matching, the loopback port
 * exception of RFC 8252 §7.3 and the spellings that must not ride on it, and what may be registered.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { OAuthError as OAuthErrorClass } from "../../src/features/authorization-server/oauth-error.js";

type RedirectUris = typeof import("../../src/features/authorization-server/redirect-uris.js");
let checkRedirectUri: RedirectUris["checkRedirectUri"];
let redirectUriMatches: RedirectUris["redirectUriMatches"];
let OAuthError: typeof OAuthErrorClass;

// The module is loaded afresh in each test: its scheme list and patterns are module-level constants, which a
// mutation run only sees changed when the module loads within the test that checks them (docs/testing.md).
beforeEach(async () => {
  vi.resetModules();
  ({ checkRedirectUri, redirectUriMatches } = await import("../../src/features/authorization-server/redirect-uris.js"));
  ({ OAuthError } = await import("../../src/features/authorization-server/oauth-error.js"));
});

const WEB = "https://app.example/callback";
const NATIVE = "com.example.app:/callback";

describe("redirectUriMatches: exact", () => {
  it.each([[WEB], [NATIVE], ["https://app.example/callback?client=1"], ["https://app.example:8443/callback"]])(
    "matches %s registered as it is",
    (uri) => {
      expect(redirectUriMatches([uri], uri)).toBe(true);
      expect(redirectUriMatches(["https://other.example/", uri], uri)).toBe(true);
    },
  );

  it.each([
    ["a one-character difference", "https://app.example/callbacK"],
    ["a last character dropped", "https://app.example/callbac"],
    ["a path suffix", "https://app.example/callback/evil"],
    ["a path continuation", "https://app.example/callbackx"],
    ["an added query", "https://app.example/callback?x=1"],
    ["an empty query", "https://app.example/callback?"],
    ["a trailing slash", "https://app.example/callback/"],
    ["a fragment", "https://app.example/callback#x"],
    ["an empty fragment", "https://app.example/callback#"],
    ["userinfo", "https://user@app.example/callback"],
    ["an empty userinfo", "https://@app.example/callback"],
    ["user and password", "https://app.example:pw@app.example/callback"],
    ["a different host", "https://evil.example/callback"],
    ["a subdomain", "https://evil.app.example/callback"],
    ["http instead of https", "http://app.example/callback"],
    ["a port on a non-loopback URI", "https://app.example:8443/callback"],
    ["the default port spelled out", "https://app.example:443/callback"],
    ["an upper-case host", "https://APP.example/callback"],
    ["an upper-case scheme", "HTTPS://app.example/callback"],
    ["a trailing dot on the host", "https://app.example./callback"],
    ["a %2e segment", "https://app.example/x/%2e%2e/callback"],
    ["a .. segment", "https://app.example/x/../callback"],
    ["a percent-encoded path", "https://app.example/%63allback"],
    ["a backslash", "https://app.example\\callback"],
    ["a leading space", ` ${WEB}`],
    ["a trailing newline", `${WEB}\n`],
    ["a tab inside", "https://app.ex\tample/callback"],
    ["the empty string", ""],
  ])("does not match %s", (_, requested) => {
    expect(redirectUriMatches([WEB], requested)).toBe(false);
  });

  it("does not match a registered URI with a fragment or userinfo even when equal", () => {
    expect(redirectUriMatches(["https://app.example/cb#x"], "https://app.example/cb#x")).toBe(false);
    expect(redirectUriMatches(["https://u@app.example/cb"], "https://u@app.example/cb")).toBe(false);
  });

  it("does not match a URI another parser reads with userinfo, even registered as it is", () => {
    expect(redirectUriMatches(["https://app.example\\@evil.example/cb"], "https://app.example\\@evil.example/cb")).toBe(false);
    expect(redirectUriMatches(["https:user@app.example/cb"], "https:user@app.example/cb")).toBe(false);
    expect(redirectUriMatches(["https::pw@app.example/cb"], "https::pw@app.example/cb")).toBe(false);
  });

  it("matches a URI with an @ in its query (no userinfo)", () => {
    const uri = "https://app.example/cb?next=https://user@other.example/";
    expect(redirectUriMatches([uri], uri)).toBe(true);
  });

  it("refuses a requested URI that is no string, without throwing", () => {
    expect(redirectUriMatches([WEB], 42 as unknown as string)).toBe(false);
    expect(redirectUriMatches([WEB], null as unknown as string)).toBe(false);
    expect(redirectUriMatches([WEB], [WEB] as unknown as string)).toBe(false);
  });

  it("does not match a relative or scheme-relative URI", () => {
    expect(redirectUriMatches(["/callback"], "/callback")).toBe(false);
    expect(redirectUriMatches(["//app.example/callback"], "//app.example/callback")).toBe(false);
  });

  it("matches nothing against no registered URIs", () => {
    expect(redirectUriMatches([], WEB)).toBe(false);
    expect(redirectUriMatches([], "http://127.0.0.1:5000/cb")).toBe(false);
  });

  it("does not match a private-use scheme in another case or form", () => {
    expect(redirectUriMatches([NATIVE], "com.example.app://callback")).toBe(false);
    expect(redirectUriMatches([NATIVE], "COM.example.app:/callback")).toBe(false);
    expect(redirectUriMatches([NATIVE], "com.example.evil:/callback")).toBe(false);
  });
});

describe("redirectUriMatches: loopback (RFC 8252 §7.3)", () => {
  it.each([
    ["http://127.0.0.1/callback", "http://127.0.0.1:51004/callback"],
    ["http://127.0.0.1:3000/callback", "http://127.0.0.1:51004/callback"],
    ["http://127.0.0.1:3000/callback", "http://127.0.0.1/callback"],
    ["http://[::1]/callback", "http://[::1]:8080/callback"],
    ["http://[::1]:1/callback", "http://[::1]:65535/callback"],
    ["http://localhost/callback", "http://localhost:33418/callback"],
    ["http://localhost:3000/", "http://localhost:4000/"],
    ["http://localhost:3000", "http://localhost:4000"],
    ["http://127.0.0.1:3000/cb?app=1", "http://127.0.0.1:4000/cb?app=1"],
    ["http://127.0.0.1:3000/cb", "http://127.0.0.1:0/cb"],
  ])("%s matches %s", (registered, requested) => {
    expect(redirectUriMatches([registered], requested)).toBe(true);
  });

  it.each([
    ["another host (localhost for 127.0.0.1)", "http://localhost:5000/callback"],
    ["another host ([::1] for 127.0.0.1)", "http://[::1]:5000/callback"],
    ["another loopback address (127.0.0.2)", "http://127.0.0.2:5000/callback"],
    ["127.1 (parsed as 127.0.0.1)", "http://127.1:5000/callback"],
    ["a decimal address (parsed as 127.0.0.1)", "http://2130706433:5000/callback"],
    ["https", "https://127.0.0.1:5000/callback"],
    ["a path suffix", "http://127.0.0.1:5000/callback/x"],
    ["another path", "http://127.0.0.1:5000/callbacks"],
    ["a %2e segment that parses away", "http://127.0.0.1:5000/x/%2e%2e/callback"],
    ["a .. segment that parses away", "http://127.0.0.1:5000/x/../callback"],
    ["a percent-encoded character", "http://127.0.0.1:5000/%63allback"],
    ["an added query", "http://127.0.0.1:5000/callback?x"],
    ["a fragment", "http://127.0.0.1:5000/callback#x"],
    ["userinfo", "http://evil@127.0.0.1:5000/callback"],
    ["empty userinfo", "http://@127.0.0.1:5000/callback"],
    ["a port with a leading zero", "http://127.0.0.1:05000/callback"],
    ["port 80 spelled out (parsed away)", "http://127.0.0.1:80/callback"],
    ["an empty port", "http://127.0.0.1:/callback"],
    ["a port out of range", "http://127.0.0.1:65536/callback"],
    ["an upper-case scheme", "HTTP://127.0.0.1:5000/callback"],
    ["a backslash for the slash", "http://127.0.0.1:5000\\callback"],
  ])("http://127.0.0.1/callback does not match %s", (_, requested) => {
    expect(redirectUriMatches(["http://127.0.0.1/callback"], requested)).toBe(false);
  });

  it.each([
    ["LOCALHOST", "http://LOCALHOST:5000/callback"],
    ["localhost.", "http://localhost.:5000/callback"],
    ["localhost.evil.example", "http://localhost.evil.example:5000/callback"],
    ["a full IPv6 spelling", "http://[0:0:0:0:0:0:0:1]:5000/callback"],
  ])("a localhost or [::1] registration does not match %s", (_, requested) => {
    expect(redirectUriMatches(["http://localhost/callback", "http://[::1]/callback"], requested)).toBe(false);
  });

  it("does not give the port exception to a registration that is not in parsed form", () => {
    expect(redirectUriMatches(["http://127.0.0.1/x/../callback"], "http://127.0.0.1:5000/callback")).toBe(false);
    expect(redirectUriMatches(["http://LOCALHOST/callback"], "http://localhost:5000/callback")).toBe(false);
    // Still an exact match for what was registered.
    expect(redirectUriMatches(["http://LOCALHOST/callback"], "http://LOCALHOST/callback")).toBe(true);
  });

  it("matches a bare loopback origin on another port only for the same host", () => {
    expect(redirectUriMatches(["http://127.0.0.1"], "http://127.0.0.1:5000")).toBe(true);
    expect(redirectUriMatches(["http://127.0.0.1"], "http://localhost:5000")).toBe(false);
    expect(redirectUriMatches(["http://localhost"], "http://[::1]:5000")).toBe(false);
  });

  it("keeps a bare origin and the origin with / apart", () => {
    expect(redirectUriMatches(["http://localhost:3000"], "http://localhost:4000/")).toBe(false);
    expect(redirectUriMatches(["http://localhost:3000/"], "http://localhost:4000")).toBe(false);
  });

  it("gives no port exception to a non-loopback http or https URI", () => {
    expect(redirectUriMatches(["http://app.example/cb"], "http://app.example:8080/cb")).toBe(false);
    expect(redirectUriMatches(["https://127.0.0.1/cb"], "https://127.0.0.1:8443/cb")).toBe(false);
    expect(redirectUriMatches(["http://192.168.1.2/cb"], "http://192.168.1.2:8080/cb")).toBe(false);
  });

  it("finds the loopback registration among others", () => {
    expect(redirectUriMatches([WEB, "http://127.0.0.1/callback"], "http://127.0.0.1:5000/callback")).toBe(true);
  });
});

function refusal(uri: string, options?: Parameters<RedirectUris["checkRedirectUri"]>[1]): OAuthErrorClass | null {
  try {
    checkRedirectUri(uri, options);
    return null;
  } catch (error) {
    return error as OAuthErrorClass;
  }
}

describe("checkRedirectUri", () => {
  it.each([
    [WEB],
    ["https://app.example:8443/callback?x=1"],
    ["https://app.example"],
    ["https://127.0.0.1/callback"],
    [NATIVE],
    ["com.example.app://callback"],
    ["com.example.app:callback"],
    ["https://app.example/a%20b"],
    ["https://app.example/cb?next=https://user@other.example/"],
    ["com.example.app:/cb?next=https://user@other.example/"],
    [`https://app.example/${"a".repeat(2000 - "https://app.example/".length)}`],
  ])("accepts %s", (uri) => {
    expect(refusal(uri)).toBeNull();
    expect(refusal(uri, { allowHttp: "loopback" })).toBeNull();
  });

  it.each([["http://127.0.0.1/callback"], ["http://127.0.0.1:5000/callback"], ["http://[::1]:5000/cb"], ["http://localhost/cb"]])(
    "accepts the loopback %s with allowHttp: loopback, and refuses it without",
    (uri) => {
      expect(refusal(uri, { allowHttp: "loopback" })).toBeNull();
      expect(refusal(uri)?.description).toMatch(/uses http:/);
    },
  );

  it.each([
    ["http to a host", "http://app.example/callback", /not loopback/],
    ["http to 127.0.0.2", "http://127.0.0.2/callback", /not loopback/],
    ["http to a private address", "http://192.168.1.1/callback", /not loopback/],
    ["http to localhost.evil.example", "http://localhost.evil.example/cb", /not loopback/],
    ["javascript:", "javascript:alert(1)", /uses the javascript: scheme/],
    ["JavaScript: in mixed case", "JaVaScRiPt:alert(1)", /uses the javascript: scheme/],
    ["javascript: with a comment", "javascript://%0aalert(1)", /uses the javascript: scheme/],
    ["data:", "data:text/html;base64,PHNjcmlwdD4=", /uses the data: scheme/],
    ["file:", "file:///etc/passwd", /uses the file: scheme/],
    ["vbscript:", "vbscript:msgbox(1)", /uses the vbscript: scheme/],
    ["blob:", "blob:https://app.example/0a1b2c3d-uuid", /uses the blob: scheme/],
    ["about:", "about:blank", /uses the about: scheme/],
    ["a fragment", "https://app.example/cb#x", /fragment/],
    ["an empty fragment", "https://app.example/cb#", /fragment/],
    ["a wildcard in the host", "https://*.app.example/cb", /wildcard/],
    ["a wildcard in the path", "https://app.example/*", /wildcard/],
    ["userinfo", "https://user@app.example/cb", /userinfo/],
    ["user and password", "https://user:pw@app.example/cb", /userinfo/],
    ["a user without slashes", "https:user@app.example/cb", /host/],
    ["a password without a user or slashes", "https::pw@app.example/cb", /host/],
    ["an empty userinfo", "https://@app.example/cb", /userinfo/],
    ["userinfo on a private-use scheme", "com.example.app://user@host/cb", /userinfo/],
    ["a relative path", "/callback", /absolute/],
    ["a scheme-relative URI", "//app.example/callback", /absolute/],
    ["https without //", "https:app.example/cb", /host/],
    ["https without // but with one in the query", "https:app.example/cb?next=https://x.example", /host/],
    ["http without //", "http:127.0.0.1/callback", /host/],
    ["http with one /", "http:/127.0.0.1/callback", /host/],
    ["a scheme without a dot", "myapp:/callback", /private-use/],
    ["ftp:", "ftp://app.example/cb", /private-use/],
    ["ws:", "ws://app.example/cb", /private-use/],
    ["a backslash", "https://app.example\\@evil.example/", /characters/],
    ["a space", "https://app.example/a b", /characters/],
    ["a leading space", " https://app.example/cb", /characters/],
    ["a tab", "https://app.exa\tmple/cb", /characters/],
    ["a newline", "https://app.example/cb\n", /characters/],
    ["non-ASCII", "https://äpp.example/cb", /characters/],
    ["a lone %", "https://app.example/100%", /percent/],
    ["a % with one hex digit", "https://app.example/%4", /percent/],
    ["a % with a non-hex digit", "https://app.example/%4g", /percent/],
    ["a % with two non-hex characters", "https://app.example/%zz", /percent/],
    ["2001 characters", `https://app.example/${"a".repeat(2001 - "https://app.example/".length)}`, /longer than 2000/],
    ["the empty string", "", /not a string/],
  ])("refuses %s", (_, uri, why) => {
    const error = refusal(uri, { allowHttp: "loopback" });
    expect(error).toBeInstanceOf(OAuthError);
    expect(error?.code).toBe("invalid_redirect_uri");
    expect(error?.status).toBe(400);
    expect(error?.description).toMatch(why);
  });

  it("refuses a non-string", () => {
    expect(refusal(42 as unknown as string)?.code).toBe("invalid_redirect_uri");
    expect(refusal(null as unknown as string)?.code).toBe("invalid_redirect_uri");
  });

  it("shows a URI of up to 100 characters whole in the description, and a longer one cut at 100", () => {
    const short = `http://app.example/${"a".repeat(100 - 19)}`;
    expect(short).toHaveLength(100);
    expect(refusal(short)?.description).toBe(
      `The redirect URI ${JSON.stringify(short)} uses http: to a host that is not loopback (use https:).`,
    );
    const long = `${short}b`;
    expect(refusal(long)?.description).toBe(
      `The redirect URI ${JSON.stringify(`${short}…`)} uses http: to a host that is not loopback (use https:).`,
    );
  });
});
