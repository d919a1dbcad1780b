/**
 * What an action's result and an action's failure look like on the wire (http/response.ts,
 * http/error-response.ts): status, headers, Set-Cookie, body; which failures are a page, a 4xx, or a 429,
 * and which error types a user may see. Driven directly, without a server.
 */
import { describe, expect, it } from "vitest";
import {
  AccessDenied,
  AuthError,
  CredentialsSignin,
  InvalidProvider,
  MethodNotAllowed,
  MissingCSRF,
  RateLimited,
  RecentSignInRequired,
  RouteNotFound,
  SessionDataTooDeep,
  SessionDataTooLarge,
  SignInError,
  UnknownAction,
  UntrustedHost,
} from "../../src/errors.js";
import type { Cookie } from "../../src/http/cookies.js";
import {
  asAuthError,
  CONFIGURATION_MESSAGE,
  errorResult,
  failureCookies,
  jsonRefusal,
  refusalOf,
  withFailureCookies,
} from "../../src/http/error-response.js";
import {
  answerToResponse,
  jsonError,
  jsonErrorAnswer,
  noStoreHeaders,
  serializeCookie,
  toAnswer,
  toResponse,
} from "../../src/http/response.js";
import { operationsOf } from "../../src/kernel/features.js";
import { createRouter } from "../../src/kernel/router.js";
import type { AuthConfig } from "../../src/types/config.js";
import type { AuthErrorShape } from "../../src/types/errors.js";
import type { InternalOptions, RequestInternal, ResponseInternal } from "../../src/types/internal.js";

const cookie: Cookie = { name: "a", value: "1", options: { httpOnly: true, path: "/", sameSite: "lax", secure: true, maxAge: 60 } };
const deleted: Cookie = { name: "b", value: "", options: { path: "/", maxAge: 0 } };

describe("answers", () => {
  it("responses that carry a session or token are kept out of every cache", () => {
    expect(noStoreHeaders).toEqual({ "Cache-Control": "private, no-cache, no-store", Expires: "0", Pragma: "no-cache" });
  });

  it("a cookie is serialised with its attributes", () => {
    expect(serializeCookie(cookie)).toBe("a=1; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax");
    expect(serializeCookie(deleted)).toBe("b=; Max-Age=0; Path=/");
  });

  it("a redirect is a 302 with Location, the action's headers and cookies, and no body", () => {
    const answer = toAnswer({ redirect: "https://app.example/done", headers: { "X-A": "1" }, cookies: [cookie] }, false);
    expect(answer).toEqual({ status: 302, headers: { "X-A": "1", Location: "https://app.example/done" }, cookies: [cookie], body: null });
  });

  it("for a fetch client a redirect is 200 JSON {url}", () => {
    const answer = toAnswer({ redirect: "https://app.example/done", headers: { "X-A": "1" } }, true);
    expect(answer).toEqual({
      status: 200,
      headers: { "X-A": "1", "Content-Type": "application/json" },
      cookies: [],
      body: '{"url":"https://app.example/done"}',
    });
  });

  it("a text body is sent as it is, with the action's status and headers", () => {
    const answer = toAnswer({ status: 201, body: "<html></html>", headers: { "Content-Type": "text/html" }, cookies: [cookie] }, true);
    expect(answer).toEqual({ status: 201, headers: { "Content-Type": "text/html" }, cookies: [cookie], body: "<html></html>" });
  });

  it("any other body is JSON, null included; the status defaults to 200", () => {
    expect(toAnswer({ body: { a: 1 } }, false)).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json" },
      cookies: [],
      body: '{"a":1}',
    });
    expect(toAnswer({ body: null }, false)).toEqual({
      status: 200,
      headers: { "Content-Type": "application/json" },
      cookies: [],
      body: "null",
    });
  });

  it("no body is no body and no Content-Type", () => {
    expect(toAnswer({ status: 204 }, false)).toEqual({ status: 204, headers: {}, cookies: [], body: null });
  });

  it("the action's headers object is not changed", () => {
    const headers = { "X-A": "1" };
    toAnswer({ body: { a: 1 }, headers }, false);
    toAnswer({ redirect: "/x", headers }, false);
    expect(headers).toEqual({ "X-A": "1" });
  });

  it("a Response carries the status, headers, body and one Set-Cookie per cookie, in order", async () => {
    const response = answerToResponse({ status: 201, headers: { "X-A": "1" }, cookies: [cookie, deleted], body: "text" });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-a")).toBe("1");
    expect(response.headers.getSetCookie()).toEqual([serializeCookie(cookie), serializeCookie(deleted)]);
    expect(await response.text()).toBe("text");
  });

  it("toResponse is the Response of the answer", async () => {
    const response = toResponse({ redirect: "https://app.example/done", cookies: [cookie] }, false);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://app.example/done");
    expect(response.headers.getSetCookie()).toEqual([serializeCookie(cookie)]);
    const json = toResponse({ redirect: "https://app.example/done" }, true);
    expect(await json.json()).toEqual({ url: "https://app.example/done" });
  });

  it("a refusal before any action is JSON {error, message} without cookies", async () => {
    expect(jsonErrorAnswer(403, "UntrustedHost", "Host not trusted")).toEqual({
      status: 403,
      headers: { "Content-Type": "application/json" },
      cookies: [],
      body: '{"error":"UntrustedHost","message":"Host not trusted"}',
    });
    const response = jsonError(400, "UnknownAction", "No such route");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ error: "UnknownAction", message: "No such route" });
  });
});

describe("cookies attached to a failure", () => {
  it("an AuthError carries the cookies attached to it, added up over several attachments", () => {
    const error = new AccessDenied("no");
    expect(withFailureCookies(error, [cookie], () => new AuthError("wrapped"))).toBe(error);
    withFailureCookies(error, [deleted], () => new AuthError("wrapped"));
    expect(failureCookies(error)).toEqual([cookie, deleted]);
  });

  it("anything else is wrapped first, and the wrapper carries the cookies", () => {
    const cause = new Error("boom");
    const wrapped = withFailureCookies(cause, [cookie], (c) => new AuthError("wrapped", { cause: c as Error }));
    expect(wrapped).toBeInstanceOf(AuthError);
    expect(wrapped.message).toBe("wrapped");
    expect(failureCookies(wrapped)).toEqual([cookie]);
  });

  it("no cookies for an error without any, or for something that is not an AuthError", () => {
    expect(failureCookies(new AccessDenied("no"))).toEqual([]);
    expect(failureCookies(new Error("boom"))).toEqual([]);
    expect(failureCookies("text")).toEqual([]);
  });

  it("the cookies handed out are a copy", () => {
    const error = withFailureCookies(new AccessDenied("no"), [cookie], () => new AuthError("x"));
    failureCookies(error).push(deleted);
    expect(failureCookies(error)).toEqual([cookie]);
  });

  it("an unexpected error becomes an AuthError saying so, keeping the original as cause", () => {
    const known = new AccessDenied("no");
    expect(asAuthError(known)).toBe(known);
    const cause = new Error("db down");
    const wrapped = asAuthError(cause);
    expect(wrapped).toBeInstanceOf(AuthError);
    expect(wrapped.message).toBe("Unexpected error.");
    expect(wrapped.cause?.err).toBe(cause);
  });
});

describe("the answer to a failure", () => {
  const where = { origin: "https://app.example", basePath: "/auth", pages: {} };
  /** The declared operations of an instance (actions/operations.ts and the features'), by name. */
  const router = createRouter(operationsOf({ providers: [] } as unknown as AuthConfig));

  /** How the operation `name` declares it presents `error` over HTTP (`undefined`: the general policy, `errorResult`). */
  function present(name: string, error: AuthError): ResponseInternal | undefined | Promise<ResponseInternal | undefined> {
    const presentation = router.named(name).presentation;
    if (typeof presentation !== "function") throw new Error(`${name} has no presentation of its own`);
    const options = { pages: {}, url: new URL("https://app.example/auth"), callbackUrl: "https://app.example/account" };
    return presentation(options as unknown as InternalOptions, { method: "GET" } as RequestInternal, error as unknown as AuthErrorShape);
  }

  function limited(retryAfter?: number): RateLimited {
    const error = new RateLimited("slow down");
    error.retryAfter = retryAfter;
    return error;
  }

  it("a rate limit on a session update is 429 with Retry-After and no body", async () => {
    const error = limited(30);
    expect(await present("updateSession", error)).toEqual({
      status: 429,
      headers: { "Retry-After": "30" },
      body: null,
      cookies: [],
      failure: error,
    });
  });

  it("a rate limit on the passkey options is 429 with Retry-After and the error type, never cached", async () => {
    const error = limited(5);
    expect(await present("webAuthnOptions", error)).toEqual({
      status: 429,
      headers: { ...noStoreHeaders, "Retry-After": "5" },
      body: { error: "RateLimited" },
      cookies: [],
      failure: error,
    });
  });

  it("a stale session asking for passkey registration options is 403 JSON RecentSignInRequired", async () => {
    const error = new RecentSignInRequired("sign in again");
    expect(await present("webAuthnOptions", error)).toEqual({
      status: 403,
      headers: noStoreHeaders,
      body: { error: "RecentSignInRequired" },
      cookies: [],
      failure: error,
    });
  });

  it("without a known end the 429 has no Retry-After", async () => {
    const unknownEnd = limited();
    expect(await present("webAuthnOptions", unknownEnd)).toEqual({
      status: 429,
      headers: noStoreHeaders,
      body: { error: "RateLimited" },
      cookies: [],
      failure: unknownEnd,
    });
    const zero = limited(0);
    expect(await present("updateSession", zero)).toEqual({ status: 429, headers: {}, body: null, cookies: [], failure: zero });
  });

  it("any other failure of the passkey options is not a status: it goes to the page of its kind", async () => {
    expect(await present("webAuthnOptions", new MissingCSRF("csrf"))).toBeUndefined();
    expect(await present("webAuthnOptions", new AccessDenied("no"))).toBeUndefined();
    expect(errorResult(new MissingCSRF("csrf"), where)).toEqual({
      redirect: "https://app.example/auth/signin?error=MissingCSRF",
      cookies: [],
    });
    expect(errorResult(new AccessDenied("no"), where)).toEqual({
      redirect: "https://app.example/auth/error?error=AccessDenied",
      cookies: [],
    });
  });

  it("a rate limit elsewhere goes back to the sign-in page", async () => {
    expect(await present("signIn", limited(30))).toBeUndefined();
    expect(router.named("getSession").presentation).toBeUndefined();
    expect(errorResult(limited(30), where)).toEqual({ redirect: "https://app.example/auth/signin?error=RateLimited", cookies: [] });
  });

  it("a session update with too much data is 413, any other bad update 400, without a body", async () => {
    for (const [error, status] of [
      [new SessionDataTooLarge("big"), 413],
      [new SessionDataTooDeep("deep"), 400],
      [new MissingCSRF("csrf"), 400],
    ] as const) {
      expect(await present("updateSession", error)).toEqual({ status, body: null, cookies: [], failure: error });
    }
  });

  it("an operation presented as JSON refuses with { error } and the class's status, a 500 Configuration when it has none", () => {
    const refused = new RecentSignInRequired("again");
    expect(jsonRefusal(refused)).toEqual({
      status: 403,
      headers: noStoreHeaders,
      body: { error: "RecentSignInRequired" },
      cookies: [],
      failure: refused,
    });
    const operators = new AuthError("secret detail");
    expect(jsonRefusal(operators)).toEqual({
      status: 500,
      headers: noStoreHeaders,
      body: { error: "Configuration" },
      cookies: [],
      failure: operators,
    });
    expect(jsonRefusal(limited(7)).headers).toEqual({ ...noStoreHeaders, "Retry-After": "7" });
  });

  it("an unknown action is 400 JSON with its message", () => {
    expect(errorResult(new UnknownAction("Cannot parse action at /auth/x"), where)).toEqual({
      status: 400,
      body: { error: "UnknownAction", message: "Cannot parse action at /auth/x" },
      cookies: [],
    });
  });

  it("a path authlib does not answer is 404 and a method 405, both shown as UnknownAction; an untrusted host 400", () => {
    expect(errorResult(new RouteNotFound("Cannot parse action at /auth/x"), where)).toEqual({
      status: 404,
      body: { error: "UnknownAction", message: "Not found." },
      cookies: [],
    });
    expect(errorResult(new MethodNotAllowed("Method not allowed: PUT"), where)).toEqual({
      status: 405,
      body: { error: "UnknownAction", message: "Method not allowed: PUT" },
      cookies: [],
    });
    expect(errorResult(new UntrustedHost("evil.example"), where)).toEqual({
      status: 400,
      body: { error: "UntrustedHost", message: "This host is not trusted." },
      cookies: [],
    });
  });

  it("a refusal before any route: the table's answer, or a 500 Configuration that hides a type the client may not see", () => {
    expect(refusalOf(new RouteNotFound("Not under the base path: /x"))).toEqual({
      status: 404,
      type: "UnknownAction",
      message: "Not found.",
    });
    expect(refusalOf(new MethodNotAllowed("Method not allowed: PUT"))).toEqual({
      status: 405,
      type: "UnknownAction",
      message: "Method not allowed: PUT",
    });
    expect(refusalOf(new InvalidProvider("secret detail"))).toEqual({ status: 500, type: "Configuration", message: CONFIGURATION_MESSAGE });
    expect(refusalOf(new AuthError("secret detail"))).toEqual({ status: 500, type: "Configuration", message: CONFIGURATION_MESSAGE });
  });

  it("a sign-in error goes to the sign-in page with its type; credentials add their code", async () => {
    expect(await present("signIn", new MissingCSRF("csrf"))).toBeUndefined();
    expect(errorResult(new MissingCSRF("csrf"), where)).toEqual({
      redirect: "https://app.example/auth/signin?error=MissingCSRF",
      cookies: [],
    });
    expect(errorResult(new CredentialsSignin("bad"), where)).toEqual({
      redirect: "https://app.example/auth/signin?error=CredentialsSignin&code=credentials",
      cookies: [],
    });
  });

  it("another client-safe error goes to the error page with its type", () => {
    expect(errorResult(new AccessDenied("no"), where)).toEqual({
      redirect: "https://app.example/auth/error?error=AccessDenied",
      cookies: [],
    });
  });

  it("an error whose type is not client-safe shows as Configuration on the error page, even a sign-in one", () => {
    expect(errorResult(new AuthError("secret detail"), where)).toEqual({
      redirect: "https://app.example/auth/error?error=Configuration",
      cookies: [],
    });
    expect(errorResult(new SignInError("secret detail"), where)).toEqual({
      redirect: "https://app.example/auth/error?error=Configuration",
      cookies: [],
    });
  });

  it("custom pages replace the built-in ones", () => {
    const custom = { ...where, pages: { signIn: "/login", error: "/oops" } };
    expect(errorResult(new MissingCSRF("csrf"), custom)).toEqual({
      redirect: "https://app.example/login?error=MissingCSRF",
      cookies: [],
    });
    expect(errorResult(new AccessDenied("no"), custom)).toEqual({
      redirect: "https://app.example/oops?error=AccessDenied",
      cookies: [],
    });
  });

  it("the cookies attached to the failure are on every kind of answer", async () => {
    const attach = <E extends AuthError>(error: E) => withFailureCookies(error, [deleted], () => new AuthError("x")) as E;
    expect((await present("updateSession", attach(limited(1))))?.cookies).toEqual([deleted]);
    expect((await present("updateSession", attach(new SessionDataTooLarge("big"))))?.cookies).toEqual([deleted]);
    expect((await present("webAuthnOptions", attach(limited(1))))?.cookies).toEqual([deleted]);
    expect(jsonRefusal(attach(new RecentSignInRequired("again"))).cookies).toEqual([deleted]);
    expect(errorResult(attach(new UnknownAction("x")), where).cookies).toEqual([deleted]);
    expect(errorResult(attach(new AccessDenied("no")), where).cookies).toEqual([deleted]);
  });
});
