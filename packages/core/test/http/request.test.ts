/**
 * How a request becomes the parsed request the actions work on (http/request.ts) and how a body stream is
 * read under a limit (http/read-stream.ts): which paths and methods are answered, which bodies are believed
 * (form vs JSON, size limits), and that the body stays readable for `authorize()`.
 */
import { describe, expect, it } from "vitest";
import { MethodNotAllowed, RouteNotFound, UnknownAction } from "../../src/errors.js";
import { readAtMost } from "../../src/http/read-stream.js";
import {
  bodyString,
  parseRequestParts as parseRequestPartsWith,
  parseRequest as parseRequestWith,
  parseActionAndProvider as parseWith,
  requestCookies,
} from "../../src/http/request.js";
import { operationsOf } from "../../src/kernel/features.js";
import { createRouter } from "../../src/kernel/router.js";
import type { AuthConfig } from "../../src/types/config.js";

/** The real route list of an instance: the spec's operations and those of the features the configuration turns on. */
const paths = createRouter(operationsOf({ providers: [] } as unknown as AuthConfig));
const parseActionAndProvider = (pathname: string, basePath: string, method?: string) => parseWith(pathname, basePath, paths, method);
const parseRequest = (request: Request, basePath: string, connectionAddress?: string) =>
  parseRequestWith(request, basePath, paths, connectionAddress);
const parseRequestParts = (parts: Parameters<typeof parseRequestPartsWith>[0], basePath: string) =>
  parseRequestPartsWith(parts, basePath, paths);

const origin = "https://app.example";
const MAX = 64 * 1024;

/** The UnknownAction `run` throws (fails the test if it throws something else or nothing). */
async function unknownAction(run: () => unknown): Promise<UnknownAction> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnknownAction);
    return error as UnknownAction;
  }
  throw new Error("expected an UnknownAction");
}

function post(body: BodyInit | null, type: string | undefined, path = "/auth/callback/credentials", headers: Record<string, string> = {}) {
  return new Request(`${origin}${path}`, {
    method: "POST",
    body,
    headers: { ...(type ? { "content-type": type } : {}), ...headers },
  });
}

/** A stream that delivers `chunks`, then ends; `pulled` counts reads, `cancelled` records a cancel. */
function streamOf(chunks: Uint8Array[]) {
  const state = { pulled: 0, cancelled: false };
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled++;
      if (i < chunks.length) controller.enqueue(chunks[i++] as Uint8Array);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("actions and provider ids in the path", () => {
  /** Each spec action, with the route template a GET to it matches (the router's, from the declarations). */
  const all: [string, string][] = [
    ["providers", "providers"],
    ["csrf", "csrf"],
    ["session", "session"],
    ["signin", "signin"],
    ["callback", "callback/:provider"],
    ["signout", "signout"],
    ["error", "error"],
    ["verify-request", "verify-request"],
    ["webauthn-options", "webauthn-options/:provider"],
    ["webauthn-script", "webauthn-script"],
  ];

  it.each(all)("%s is an action (route %s)", (action, route) => {
    expect(parseActionAndProvider(`/auth/${action}`, "/auth")).toEqual({ action, route, path: `/${action}`, providerId: undefined });
  });

  it.each([
    ["signin", "POST"],
    ["callback", "GET"],
    ["callback", "POST"],
    ["webauthn-options", "GET"],
  ])("%s takes a provider id (%s)", (action, method) => {
    expect(parseActionAndProvider(`/auth/${action}/github`, "/auth", method)).toEqual({
      action,
      route: `${action}/:provider`,
      path: `/${action}/github`,
      providerId: "github",
    });
  });

  it.each(["providers", "csrf", "session", "signout", "error", "verify-request", "webauthn-script"])(
    "%s takes no provider id",
    async (action) => {
      const error = await unknownAction(() => parseActionAndProvider(`/auth/${action}/github`, "/auth"));
      expect(error).toBeInstanceOf(RouteNotFound);
      expect(error.message).toBe(`Cannot parse action at /auth/${action}/github`);
    },
  );

  it("a path that exists for another method parses without a route (the pipeline refuses it as MethodNotAllowed)", () => {
    expect(parseActionAndProvider("/auth/signin/github", "/auth", "GET")).toEqual({
      action: "signin",
      route: undefined,
      path: "/signin/github",
      providerId: "github",
    });
    expect(parseActionAndProvider("/auth/signout", "/auth", "POST")).toMatchObject({ action: "signout", route: "signout" });
    expect(parseActionAndProvider("/auth/csrf", "/auth", "POST")).toEqual({
      action: "csrf",
      route: undefined,
      path: "/csrf",
      providerId: undefined,
    });
    expect(() => paths.operationOf({ method: "POST", route: undefined, path: "/csrf" } as never)).toThrow(MethodNotAllowed);
  });

  it("a feature's sub-route is part of the route, never a provider id; a sub-route it does not declare is refused", async () => {
    expect(parseActionAndProvider("/auth/sessions/revoke", "/auth", "POST")).toEqual({
      action: "sessions",
      route: "sessions/revoke",
      path: "/sessions/revoke",
      providerId: undefined,
    });
    expect(parseActionAndProvider("/auth/password/sign-up", "/auth")).toEqual({
      action: "password",
      route: "password/sign-up",
      path: "/password/sign-up",
      providerId: undefined,
    });
    for (const path of ["/auth/sessions/github", "/auth/password", "/auth/accounts/revoke"]) {
      const error = await unknownAction(() => parseActionAndProvider(path, "/auth", "POST"));
      expect(error).toBeInstanceOf(RouteNotFound);
      expect(error.message).toBe(`Cannot parse action at ${path}`);
    }
  });

  it("the two-factor settings are routes only when twoFactor turns the feature on; the assurance route always is", async () => {
    expect(parseActionAndProvider("/auth/two-factor/assurance", "/auth")).toMatchObject({ route: "two-factor/assurance" });
    const off = await unknownAction(() => parseActionAndProvider("/auth/two-factor/enroll", "/auth", "POST"));
    expect(off).toBeInstanceOf(RouteNotFound);
    const on = createRouter(operationsOf({ providers: [], twoFactor: {} } as unknown as AuthConfig));
    expect(parseWith("/auth/two-factor/enroll", "/auth", on, "POST")).toEqual({
      action: "two-factor",
      route: "two-factor/enroll",
      path: "/two-factor/enroll",
      providerId: undefined,
    });
    expect(parseWith("/auth/two-factor/assurance", "/auth", on)).toMatchObject({ route: "two-factor/assurance", providerId: undefined });
  });

  it("an unknown action, no action, or a third segment is refused with the path in the message", async () => {
    expect((await unknownAction(() => parseActionAndProvider("/auth/nope", "/auth"))).message).toBe("Cannot parse action at /auth/nope");
    expect((await unknownAction(() => parseActionAndProvider("/auth", "/auth"))).message).toBe("Cannot parse action at /auth");
    expect((await unknownAction(() => parseActionAndProvider("/auth/", "/auth"))).message).toBe("Cannot parse action at /auth/");
    expect((await unknownAction(() => parseActionAndProvider("/auth/signin/github/x", "/auth"))).message).toBe(
      "Cannot parse action at /auth/signin/github/x",
    );
  });

  it("a path outside the base path is refused, including one that merely starts with it", async () => {
    expect((await unknownAction(() => parseActionAndProvider("/other/signin", "/auth"))).message).toBe(
      "Not under the base path: /other/signin",
    );
    expect((await unknownAction(() => parseActionAndProvider("/authx/signin", "/auth"))).message).toBe(
      "Not under the base path: /authx/signin",
    );
  });

  it("trailing slashes of the base path and empty segments are ignored", () => {
    const session = { action: "session", route: "session", path: "/session", providerId: undefined };
    expect(parseActionAndProvider("/auth/session", "/auth/")).toEqual(session);
    expect(parseActionAndProvider("/auth/session", "/auth//")).toEqual(session);
    expect(parseActionAndProvider("/auth//signin//github/", "/auth", "POST")).toEqual({
      action: "signin",
      route: "signin/:provider",
      path: "/signin/github",
      providerId: "github",
    });
    expect(parseActionAndProvider("/session", "/")).toEqual(session);
    expect(parseActionAndProvider("/session", "")).toEqual(session);
  });

  it("the provider id is percent-decoded; one that cannot be decoded is refused", async () => {
    expect(parseActionAndProvider("/auth/signin/my%20id", "/auth", "POST")).toEqual({
      action: "signin",
      route: "signin/:provider",
      path: "/signin/my%20id",
      providerId: "my id",
    });
    const error = await unknownAction(() => parseActionAndProvider("/auth/signin/%E0%A4%A", "/auth", "POST"));
    expect(error.message).toBe("Cannot parse provider id at /auth/signin/%E0%A4%A");
  });
});

describe("parsing a Request", () => {
  it("a GET: action, provider, query, cookies, headers and the connection address; no body; the Request itself", async () => {
    const request = new Request(`${origin}/auth/callback/github?callbackUrl=%2Fdone&x=1`, {
      headers: { cookie: "a=1; b=two%20words", "x-test": "yes" },
    });
    const parsed = await parseRequest(request, "/auth", "203.0.113.7");
    expect(parsed).toMatchObject({
      method: "GET",
      action: "callback",
      route: "callback/:provider",
      path: "/callback/github",
      providerId: "github",
      query: { callbackUrl: "/done", x: "1" },
      body: {},
      cookies: { a: "1", b: "two words" },
      connectionAddress: "203.0.113.7",
    });
    expect(parsed.url.href).toBe(request.url);
    expect(parsed.headers.get("x-test")).toBe("yes");
    expect(parsed.request).toBe(request);
  });

  it("methods other than GET and POST are refused, with the method in the message", async () => {
    const request = new Request(`${origin}/auth/session`, { method: "PUT", body: "x" });
    expect((await unknownAction(() => parseRequest(request, "/auth"))).message).toBe("Method not allowed: PUT");
    const del = new Request(`${origin}/auth/session`, { method: "delete" });
    expect((await unknownAction(() => parseRequest(del, "/auth"))).message).toBe("Method not allowed: DELETE");
  });

  it("a path it does not answer is refused", async () => {
    await unknownAction(() => parseRequest(new Request(`${origin}/elsewhere`), "/auth"));
  });

  it("a urlencoded form body gives its fields", async () => {
    const parsed = await parseRequest(
      post("csrfToken=abc&email=a%40b.example", "application/x-www-form-urlencoded;charset=UTF-8"),
      "/auth",
    );
    expect(parsed.method).toBe("POST");
    expect(parsed.body).toEqual({ csrfToken: "abc", email: "a@b.example" });
  });

  it("a JSON object body gives its fields, whatever the charset parameter", async () => {
    const parsed = await parseRequest(post(JSON.stringify({ csrfToken: "abc", n: 1 }), "application/json; charset=utf-8"), "/auth");
    expect(parsed.body).toEqual({ csrfToken: "abc", n: 1 });
  });

  it("a JSON body that is not an object, or malformed, is an empty body", async () => {
    for (const text of ["[1,2]", "null", "42", '"text"', "{not json"]) {
      expect((await parseRequest(post(text, "application/json"), "/auth")).body).toEqual({});
    }
  });

  it("a body of another type, or without a type, is an empty body", async () => {
    expect((await parseRequest(post("csrfToken=abc", "text/plain"), "/auth")).body).toEqual({});
    expect((await parseRequest(post('{"csrfToken":"abc"}', "text/plain"), "/auth")).body).toEqual({});
    const untyped = new Request(`${origin}/auth/signout`, { method: "POST", body: new Uint8Array([97, 61, 98]) });
    expect(untyped.headers.get("content-type")).toBeNull();
    expect((await parseRequest(untyped, "/auth")).body).toEqual({});
  });

  it("a POST without a body has an empty body and stays the Request itself", async () => {
    const request = new Request(`${origin}/auth/signout`, { method: "POST" });
    const parsed = await parseRequest(request, "/auth");
    expect(parsed.body).toEqual({});
    expect(parsed.request).toBe(request);
  });

  it("a body of exactly 64 KiB is read; one byte more is an empty body", async () => {
    const field = (size: number) => `a=${"x".repeat(size - 2)}`;
    const fits = await parseRequest(post(field(MAX), "application/x-www-form-urlencoded"), "/auth");
    expect((fits.body.a as string).length).toBe(MAX - 2);
    const tooLarge = await parseRequest(post(field(MAX + 1), "application/x-www-form-urlencoded"), "/auth");
    expect(tooLarge.body).toEqual({});
  });

  it("a body that declares more than 64 KiB is not read at all", async () => {
    const request = post("a=b", "application/x-www-form-urlencoded", undefined, { "content-length": String(MAX + 1) });
    expect(request.headers.get("content-length")).toBe(String(MAX + 1));
    const parsed = await parseRequest(request, "/auth");
    expect(parsed.body).toEqual({});
    expect(request.bodyUsed).toBe(false);
  });

  it("a body that declares exactly 64 KiB is read", async () => {
    const request = post("a=b", "application/x-www-form-urlencoded", undefined, { "content-length": String(MAX) });
    expect((await parseRequest(request, "/auth")).body).toEqual({ a: "b" });
  });

  it("a streamed body larger than 64 KiB, or one that fails while read, is an empty body", async () => {
    const big = streamOf([new Uint8Array(MAX), new Uint8Array(1)]).stream;
    const request = new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      body: big,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    const parsed = await parseRequest(request, "/auth");
    expect(parsed.body).toEqual({});
    expect(await parsed.request.text()).toBe("");

    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    const broken = new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      body: failing,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    expect((await parseRequest(broken, "/auth")).body).toEqual({});
  });

  it("after the body is read, the request handed on is a copy with the same URL, method, headers and body, made once", async () => {
    const original = post("email=a%40b.example&csrfToken=t", "application/x-www-form-urlencoded", "/auth/signin/email", { "x-test": "1" });
    const parsed = await parseRequest(original, "/auth");
    expect(original.bodyUsed).toBe(true);
    const copy = parsed.request;
    expect(copy).not.toBe(original);
    expect(parsed.request).toBe(copy);
    expect(copy.url).toBe(original.url);
    expect(copy.method).toBe("POST");
    expect(copy.headers.get("x-test")).toBe("1");
    expect(await copy.text()).toBe("email=a%40b.example&csrfToken=t");
    expect(Object.keys(parsed)).toContain("request");
    expect({ ...parsed }.request).toBe(copy);
  });
});

describe("parsing a request given as its parts", () => {
  it("a GET by default, with the URL's action, query and cookies, and no body even when one is given", async () => {
    const parsed = await parseRequestParts(
      { url: `${origin}/auth/session?x=1`, headers: { cookie: "c=d" }, body: { csrfToken: "t" }, clientAddress: "198.51.100.1" },
      "/auth",
    );
    expect(parsed).toMatchObject({
      method: "GET",
      action: "session",
      query: { x: "1" },
      body: {},
      cookies: { c: "d" },
      connectionAddress: "198.51.100.1",
    });
    expect(parsed.request.method).toBe("GET");
    expect(parsed.request.url).toBe(`${origin}/auth/session?x=1`);
  });

  it("a POST carries a copy of the given body; the method may be lower-case", async () => {
    const body = { csrfToken: "t", email: "a@b.example" };
    const parsed = await parseRequestParts({ url: new URL(`${origin}/auth/signin/email`), method: "post", body }, "/auth");
    expect(parsed.method).toBe("POST");
    expect(parsed.request.method).toBe("POST");
    expect(parsed.body).toEqual(body);
    expect(parsed.body).not.toBe(body);
  });

  it("a POST without a body, or with one that is not an object, has an empty body", async () => {
    expect((await parseRequestParts({ url: `${origin}/auth/signout`, method: "POST" }, "/auth")).body).toEqual({});
    const notObject = { url: `${origin}/auth/signout`, method: "POST", body: "csrfToken=t" as unknown as Record<string, unknown> };
    expect((await parseRequestParts(notObject, "/auth")).body).toEqual({});
  });

  it("methods other than GET and POST are refused before a Request is made, with the method in the message", async () => {
    for (const method of ["CONNECT", "TRACE", "PUT", "delete"]) {
      const error = await unknownAction(() => parseRequestParts({ url: `${origin}/auth/session`, method }, "/auth"));
      expect(error.message).toBe(`Method not allowed: ${method.toUpperCase()}`);
    }
  });

  it("a URL or headers a Request cannot be made from are refused, with the reason as cause", async () => {
    const badUrl = await unknownAction(() => parseRequestParts({ url: "not a url" }, "/auth"));
    expect(badUrl.message).toBe("The request URL or headers are not valid.");
    expect(badUrl.cause?.err).toBeInstanceOf(TypeError);
    const badHeader = await unknownAction(() =>
      parseRequestParts({ url: `${origin}/auth/session`, headers: { "bad header": "x" } }, "/auth"),
    );
    expect(badHeader.message).toBe("The request URL or headers are not valid.");
  });
});

describe("cookies and body fields", () => {
  it("a request's cookies come from its Cookie header; none without one", () => {
    expect(requestCookies(new Headers({ cookie: "a=1; b=2" }))).toEqual({ a: "1", b: "2" });
    expect(requestCookies(new Headers())).toEqual({});
  });

  it("a body field is read only when it is a string", () => {
    expect(bodyString({ a: "x", b: 1, c: ["x"] }, "a")).toBe("x");
    expect(bodyString({ a: "x", b: 1, c: ["x"] }, "b")).toBeUndefined();
    expect(bodyString({ a: "x", b: 1, c: ["x"] }, "c")).toBeUndefined();
    expect(bodyString({}, "a")).toBeUndefined();
  });
});

describe("reading a body under a limit", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);

  it("joins every chunk in order", async () => {
    const { stream } = streamOf([bytes(1, 2), bytes(3), bytes(4, 5, 6)]);
    expect(await readAtMost(stream, 100)).toEqual({ bytes: bytes(1, 2, 3, 4, 5, 6) });
  });

  it("a body of exactly the limit is read; an empty body is empty bytes", async () => {
    expect(await readAtMost(streamOf([bytes(1, 2), bytes(3, 4)]).stream, 4)).toEqual({ bytes: bytes(1, 2, 3, 4) });
    expect(await readAtMost(streamOf([]).stream, 4)).toEqual({ bytes: bytes() });
  });

  it("stops at the first chunk that passes the limit, says how much it saw, and cancels the stream", async () => {
    const { stream, state } = streamOf([bytes(1, 2), bytes(3, 4, 5), bytes(6), bytes(7)]);
    expect(await readAtMost(stream, 4)).toEqual({ tooLarge: true, read: 5 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(3);
  });

  it("a cancel that fails does not reject the read", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes(1, 2, 3));
      },
      cancel() {
        throw new Error("cannot cancel");
      },
    });
    expect(await readAtMost(stream, 2)).toEqual({ tooLarge: true, read: 3 });
  });

  it("a read error rejects", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });
    await expect(readAtMost(stream, 10)).rejects.toThrow("connection reset");
  });
});
