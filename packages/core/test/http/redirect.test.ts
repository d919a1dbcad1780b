/**
 * Where a sign-in may send the browser: the default `redirect` callback and what authlib does with the
 * result of a custom one (http/redirect.ts), on http and https base URLs.
 */
import { describe, expect, it } from "vitest";
import { InvalidCallbackUrl } from "../../src/errors.js";
import { defaultRedirect, isSameOrigin, resolveRedirect, resolveUrl } from "../../src/http/redirect.js";
import type { CallbacksOptions, LoggerInstance } from "../../src/types/config.js";

/** A logger that keeps the errors and the warning codes it is given. */
function recordingLogger(): LoggerInstance & { errors: Error[]; warnings: string[] } {
  const errors: Error[] = [];
  const warnings: string[] = [];
  return { errors, warnings, error: (error) => errors.push(error), warn: (code) => warnings.push(code), debug: () => {} };
}

const httpsBase = "https://app.example.com";

describe("the default redirect callback on an https base URL", () => {
  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "http://app.example.com/",
    "https://app.example.com:8443/",
    "https://app.example.com.evil.example/",
    "https://user@app.example.com/",
    "https://:secret@app.example.com/",
    "https://user:secret@app.example.com/",
    "javascript:alert(1)",
    "data:text/html,hi",
    "ftp://app.example.com/",
  ])("sends %j to the base URL", async (url) => {
    expect(await defaultRedirect({ url, baseUrl: httpsBase })).toBe(httpsBase);
  });

  it.each([
    ["/dashboard?tab=1#top", "https://app.example.com/dashboard?tab=1#top"],
    ["https://app.example.com/x", "https://app.example.com/x"],
    ["HTTPS://APP.EXAMPLE.COM:443/y", "https://app.example.com/y"],
  ])("keeps the same-origin %j as %j", async (url, expected) => {
    expect(await defaultRedirect({ url, baseUrl: httpsBase })).toBe(expected);
  });
});

describe("userinfo never counts as the same origin", () => {
  it.each(["http://user@localhost:3000/", "http://:pass@localhost:3000/", "http://user:pass@localhost:3000/"])("%j", (url) => {
    expect(isSameOrigin(url, "http://localhost:3000")).toBe(false);
  });

  it("the same URL without userinfo does", () => {
    expect(isSameOrigin("http://localhost:3000/", "http://localhost:3000")).toBe(true);
  });
});

describe("resolveUrl accepts http(s) only", () => {
  it.each(["javascript:alert(1)", "data:text/plain,x", "ftp://localhost:3000/", "mailto:a@example.com", "http://[not-a-host"])(
    "%j is not a redirect target",
    (url) => {
      expect(resolveUrl(url, "http://localhost:3000")).toBeNull();
    },
  );

  it("resolves relative URLs against the base", () => {
    expect(resolveUrl("/a", httpsBase)?.href).toBe("https://app.example.com/a");
    expect(resolveUrl("http://other.example/", httpsBase)?.href).toBe("http://other.example/");
  });
});

describe("a custom redirect callback's result", () => {
  const run = async (redirect: CallbacksOptions["redirect"], candidate = "/next") => {
    const logger = recordingLogger();
    const target = await resolveRedirect(candidate, httpsBase, redirect, logger);
    return { target, logged: logger.errors, warned: logger.warnings };
  };

  it.each(["javascript:alert(1)", "data:text/html,hi", "ftp://app.example.com/file", "http://[broken"])(
    "%j is replaced by the base URL and logged as InvalidCallbackUrl",
    async (returned) => {
      const { target, logged } = await run(() => returned);
      expect(target).toBe(httpsBase);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toBeInstanceOf(InvalidCallbackUrl);
      expect(logged[0]?.message).toContain("invalid URL");
    },
  );

  it.each([null, undefined, 42, { href: "https://app.example.com/x" }])(
    "a non-string (%j) is replaced by the base URL and logged",
    async (returned) => {
      const { target, logged } = await run(() => returned as unknown as string);
      expect(target).toBe(httpsBase);
      expect(logged.map((e) => e.constructor)).toEqual([InvalidCallbackUrl]);
    },
  );

  it("a callback that throws gives the base URL, logged with the thrown error as cause", async () => {
    const failure = new Error("callback bug");
    const { target, logged } = await run(() => {
      throw failure;
    });
    expect(target).toBe(httpsBase);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toBeInstanceOf(InvalidCallbackUrl);
    expect(logged[0]?.message).toContain("threw");
    expect((logged[0]?.cause as { err?: Error } | undefined)?.err).toBe(failure);
  });

  it("a rejected promise is handled like a throw", async () => {
    const { target, logged } = await run(async () => Promise.reject(new Error("async bug")));
    expect(target).toBe(httpsBase);
    expect(logged[0]).toBeInstanceOf(InvalidCallbackUrl);
  });

  it("a relative result is resolved against the base URL, with nothing logged", async () => {
    expect(await run(async () => "/welcome")).toEqual({ target: "https://app.example.com/welcome", logged: [], warned: [] });
  });

  it("a callback may deliberately send elsewhere: its absolute http(s) result is used as it is", async () => {
    expect(await run(() => "https://partner.example/landing")).toEqual({
      target: "https://partner.example/landing",
      logged: [],
      warned: [],
    });
  });

  it("a foreign candidate replaced by the base URL is the client's signal (a warning, no error); a same-origin one sent home is neither", async () => {
    const foreign = await run(defaultRedirect, "https://evil.example/");
    expect(foreign).toEqual({ target: "https://app.example.com/", logged: [], warned: ["callback-url-refused"] });
    const home = await run(defaultRedirect, "/");
    expect(home).toEqual({ target: "https://app.example.com/", logged: [], warned: [] });
  });

  it("the app's callback failing is an error, never a warning", async () => {
    const failed = await run(() => "javascript:alert(1)");
    expect(failed.warned).toEqual([]);
    expect((failed.logged[0] as InvalidCallbackUrl).code).toBe("callback-failed");
  });

  it("a foreign candidate the callback sends somewhere other than the base URL is not reported as replaced", async () => {
    expect(await run(() => "/elsewhere", "https://evil.example/")).toEqual({
      target: "https://app.example.com/elsewhere",
      logged: [],
      warned: [],
    });
  });
});
