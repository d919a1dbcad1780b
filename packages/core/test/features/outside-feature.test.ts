/**
 * The feature seam, proven from outside: docs/examples/invite-codes.ts is written with the public
 * `defineFeature` (no file of packages/core/src knows it), turned on by `features`, and driven over HTTP
 * and through `auth.api.run` with the same checks as authlib's own operations. And one declaration is
 * seen everywhere: router, parser, telemetry's route template, `auth.api`.
 */
import { createAuth, defineFeature } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";
import type { AuthConfig } from "@authlib/core/types";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidInvite, inviteCodes } from "../../../../docs/examples/invite-codes.js";
import { CookieJar } from "../helpers/auth-client.js";
import { registerInMemorySdk } from "../telemetry/otel-sdk.js";

const origin = "http://localhost:3000";

function config(features: AuthConfig["features"]): AuthConfig {
  return {
    secret: "a-secret-of-at-least-thirty-two-characters!!",
    url: origin,
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) =>
          email === "ada@example.com" && password === "right" ? { id: "u1", email: "ada@example.com" } : null,
      }),
    ],
    features,
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
}

/** A browser of `auth`: a cookie jar, the CSRF token, a sign-in with the credentials form. */
function browser(auth: ReturnType<typeof createAuth>) {
  const jar = new CookieJar();
  async function send(path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers = new Headers(init.headers);
    if (jar.cookies.size > 0) headers.set("cookie", jar.header());
    let body: string | undefined;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const response = await auth.handler(new Request(new URL(path, origin), { method: body ? "POST" : "GET", headers, body }));
    jar.apply(response);
    return response;
  }
  async function csrf() {
    return ((await (await send("/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  }
  async function signIn() {
    const csrfToken = await csrf();
    await send("/auth/callback/credentials", { form: { csrfToken, email: "ada@example.com", password: "right", callbackUrl: "/" } });
  }
  const request = () => new Request(new URL("/", origin), { headers: { cookie: jar.header(), "sec-fetch-site": "same-origin" } });
  return { send, csrf, signIn, request };
}

describe("an app's own feature (docs/examples/invite-codes.ts)", () => {
  it("its routes answer over HTTP: a check anyone may make, a redeem that needs the CSRF proof and a session", async () => {
    const auth = createAuth(config([inviteCodes({ codes: ["WELCOME", "SECOND"] })]));
    const user = browser(auth);
    expect(await (await user.send("/auth/invites/check?code=WELCOME")).json()).toEqual({ valid: true });
    expect(await (await user.send("/auth/invites/check?code=nope")).json()).toEqual({ valid: false });

    const csrfToken = await user.csrf();
    // Signed out: the kernel's error policy by class, as JSON (the feature said so).
    const signedOut = await user.send("/auth/invites/redeem", { form: { csrfToken, code: "WELCOME" } });
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toEqual({ error: "SessionRequired" });

    await user.signIn();
    // Without the CSRF token: refused before the handler runs (`needs: { csrf: "prove" }`).
    const forged = await user.send("/auth/invites/redeem", { form: { code: "WELCOME" } });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: "MissingCSRF" });

    const redeemed = await user.send("/auth/invites/redeem", { form: { csrfToken: await user.csrf(), code: "WELCOME" } });
    expect(redeemed.status).toBe(200);
    expect(await redeemed.json()).toEqual({ redeemed: true });
    // Its own error class, with its own status.
    const again = await user.send("/auth/invites/redeem", { form: { csrfToken: await user.csrf(), code: "WELCOME" } });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "InvalidInvite" });
    // A method the feature did not declare for the path.
    expect((await user.send("/auth/invites/redeem")).status).toBe(405);
    // Its typed input: a code over 64 characters, or none, is refused before the handler, by its own class.
    const long = await user.send("/auth/invites/redeem", { form: { csrfToken: await user.csrf(), code: "W".repeat(65) } });
    expect([long.status, await long.json()]).toEqual([400, { error: "InvalidInvite" }]);
    const none = await user.send("/auth/invites/check");
    expect([none.status, await none.json()]).toEqual([400, { error: "InvalidInvite" }]);
  });

  it("its operations run through auth.api.run, with the same checks, errors thrown typed", async () => {
    const auth = createAuth(config([inviteCodes({ codes: ["WELCOME"] })]));
    const user = browser(auth);
    expect((await auth.api.run(user.request(), "checkInvite", { code: "WELCOME" })).body).toEqual({ valid: true });
    await expect(auth.api.run(user.request(), "redeemInvite", { code: "WELCOME" })).rejects.toMatchObject({ type: "SessionRequired" });
    await user.signIn();
    // Sent from another site: refused as every in-process operation is.
    const crossSite = new Request(new URL("/", origin), {
      headers: { cookie: user.request().headers.get("cookie") ?? "", "sec-fetch-site": "cross-site" },
    });
    await expect(auth.api.run(crossSite, "redeemInvite", { code: "WELCOME" })).rejects.toMatchObject({ type: "MissingCSRF" });
    expect((await auth.api.run(user.request(), "redeemInvite", { code: "WELCOME" })).body).toEqual({ redeemed: true });
    await expect(auth.api.run(user.request(), "redeemInvite", { code: "WELCOME" })).rejects.toBeInstanceOf(InvalidInvite);
    // The same schema parses the in-process call: a field it does not declare is ignored, a long code refused.
    expect((await auth.api.run(user.request(), "checkInvite", { code: "WELCOME", extra: 1 })).body).toEqual({ valid: false });
    await expect(auth.api.run(user.request(), "checkInvite", { code: "W".repeat(65) })).rejects.toBeInstanceOf(InvalidInvite);
  });

  it("without the feature its paths are not routes; a feature not made well is a configuration error", async () => {
    const plain = createAuth(config(undefined));
    expect((await plain.handler(new Request(`${origin}/auth/invites/check?code=x`))).status).toBe(404);
    const bad = [{ name: "broken", operations: [{ name: "x", method: "PUT", path: "x", handler: () => ({}) }] }];
    expect(() => createAuth(config(bad as AuthConfig["features"]))).toThrow(/configuration could not be read/);
    // A route or a name that collides with authlib's own.
    const clash = defineFeature({ name: "clash", operations: [{ name: "mine", method: "GET", path: "session", handler: () => ({}) }] });
    expect(() => createAuth(config([clash]))).toThrow();
  });
});

describe("one declaration is seen everywhere", () => {
  const sdk = registerInMemorySdk();
  afterAll(() => sdk.shutdown());

  it("a new operation is routed, parsed, traced under its template and reachable by auth.api", async () => {
    const hello = defineFeature({
      name: "hello",
      operations: [
        {
          name: "hello",
          method: "GET",
          path: "hello/:provider",
          presentation: "json",
          handler: (_options, request) => ({ body: { hello: request.providerId ?? null } }),
        },
      ],
    });
    const auth = createAuth(config([hello]));
    const answer = await auth.handler(new Request(`${origin}/auth/hello/credentials`));
    expect(await answer.json()).toEqual({ hello: "credentials" });
    expect((await auth.api.run(new Request(`${origin}/`), "hello", {})).body).toEqual({ hello: null });
    expect((await auth.handler(new Request(`${origin}/auth/hello/a/b`))).status).toBe(404);
    const routes = sdk.finished().map((span) => span.attributes["http.route"]);
    expect(routes).toContain("/auth/hello/:provider");
  });
});
