/**
 * The sign-in family's typed input (issue 45, item 1): the same fields sent as a form post, as a JSON
 * body and through `auth.api` reach the sign-in routes' handlers as the same parsed input, and are refused
 * the same way. Seen where a handler hands them on: a credentials provider's `authorize`, an email
 * provider's mail, an OAuth provider's authorization URL.
 */
import { describe, expect, it } from "vitest";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";
import { endpointsProvider } from "../oauth/support.js";

const ORIGIN = "http://localhost:3000";
const PROVIDER = "https://provider.example";

function app() {
  const authorized: Record<string, unknown>[] = [];
  const mailed: string[] = [];
  const config: AuthConfig = {
    secret: "sign-in-input-paths-secret-0123456789abcdef",
    trustHost: true,
    adapter: withVerificationTokens(memoryAdapter().adapter),
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        id: "creds",
        credentials: { username: {}, pin: {} },
        authorize: (credentials) => {
          authorized.push({ ...credentials });
          return { id: "u1", name: "Ada" };
        },
      }),
      endpointsProvider(PROVIDER, "example", { checks: ["state"] }),
      { id: "mail", name: "Mail", type: "email", sendVerificationRequest: ({ identifier }) => void mailed.push(identifier) },
    ],
    rateLimit: { store: memoryRateLimitStore({ now: () => Date.now() }) },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
  const auth = createAuth(config);
  const browser = () => authClient(config, ORIGIN);
  const caller = () => new Request(`${ORIGIN}/app`);
  return { auth, browser, caller, authorized, mailed };
}

/** The three ways in: a form post and a JSON body (with the browser's CSRF token), and `auth.api.signIn`. */
async function threeWays(
  path: string,
  fields: Record<string, unknown>,
  api: (a: ReturnType<typeof app>) => Promise<unknown>,
  given = app(),
): Promise<{ form: Response; json: Response; api: PromiseSettledResult<unknown> }> {
  const browser = given.browser();
  const csrfToken = await browser.csrf();
  const form = await browser.send(path, { form: { ...fields, csrfToken } as Record<string, string> });
  const json = await browser.send(path, { json: { ...fields, csrfToken } });
  const [settled] = await Promise.allSettled([api(given)]);
  return { form, json, api: settled as PromiseSettledResult<unknown> };
}

/** The `?error=` of a refusal's redirect. */
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", ORIGIN).searchParams.get("error");
const typeOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === "rejected" ? (settled.reason as Error & { type?: string }).type : "fulfilled";

describe("callbackPost (credentials): the app's own fields, the same three ways", () => {
  it("authorize gets the same credentials (the form's csrfToken and callbackUrl left out)", async () => {
    const given = app();
    const fields = { username: "ada", pin: "1234", callbackUrl: "/done" };
    const { form, json, api } = await threeWays(
      "/auth/callback/creds",
      fields,
      (a) => a.auth.api.signIn(a.caller(), { providerId: "creds", username: "ada", pin: "1234", redirectTo: "/done" }),
      given,
    );
    expect([form.status, json.status, api.status]).toEqual([302, 302, "fulfilled"]);
    expect(form.headers.get("location")).toBe(`${ORIGIN}/done`);
    expect(json.headers.get("location")).toBe(`${ORIGIN}/done`);
    expect(given.authorized).toEqual([
      { username: "ada", pin: "1234" },
      { username: "ada", pin: "1234" },
      { username: "ada", pin: "1234" },
    ]);
  });

  it("a declared field that is not text is CredentialsSignin every way, and authorize never runs", async () => {
    const given = app();
    const browser = given.browser();
    const csrfToken = await browser.csrf();
    const json = await browser.send("/auth/callback/creds", { json: { csrfToken, username: ["ada"], pin: "1234" } });
    const [api] = await Promise.allSettled([
      given.auth.api.signIn(given.caller(), { providerId: "creds", username: ["ada"], pin: "1234" }),
    ]);
    expect(errorOf(json)).toBe("CredentialsSignin");
    expect(typeOf(api as PromiseSettledResult<unknown>)).toBe("CredentialsSignin");
    expect(given.authorized).toEqual([]);
  });
});

describe("signIn (OAuth): the authorization parameters, the same three ways", () => {
  it("reach the provider's authorization URL; the query's callbackUrl is not one of them", async () => {
    const { form, json, api } = await threeWays("/auth/signin/example?prompt=login&callbackUrl=%2Fdone", { callbackUrl: "/done" }, (a) =>
      a.auth.api.signIn(a.caller(), { providerId: "example", authorizationParams: { prompt: "login" }, redirectTo: "/done" }),
    );
    const redirect = api.status === "fulfilled" ? (api.value as { redirect: string }).redirect : "";
    const urls = [form.headers.get("location") ?? "", json.headers.get("location") ?? "", redirect].map((href) => new URL(href));
    for (const url of urls) {
      expect(url.origin).toBe(PROVIDER);
      expect(url.searchParams.get("prompt")).toBe("login");
      expect(url.searchParams.has("callbackUrl")).toBe(false);
    }
    const names = urls.map((url) => [...url.searchParams.keys()].sort());
    expect(names[1]).toEqual(names[0]);
    expect(names[2]).toEqual(names[0]);
  });

  it("refuses a parameter over its limit (never cut, never a 500), and parameters that are not a record of text", async () => {
    const given = app();
    const long = "x".repeat(64 * 1024 + 1);
    const browser = given.browser();
    const csrfToken = await browser.csrf();
    const form = await browser.send(`/auth/signin/example?prompt=${long}`, { form: { csrfToken } });
    // UnknownAction's own 400, and nothing sent to the provider.
    expect(form.status).toBe(400);
    expect(form.headers.get("location")).toBeNull();
    const refused = [{ prompt: long }, { prompt: 1 }, "prompt=login"].map((authorizationParams) =>
      given.auth.api.signIn(given.caller(), { providerId: "example", authorizationParams: authorizationParams as never }),
    );
    for (const settled of await Promise.allSettled(refused)) expect(typeOf(settled)).toBe("UnknownAction");
  });
});

describe("signIn (email): the address, the same three ways", () => {
  it("the mail goes to the same normalised address", async () => {
    const given = app();
    const { form, json, api } = await threeWays(
      "/auth/signin/mail",
      { email: "Ada@Example.com" },
      (a) => a.auth.api.signIn(a.caller(), { providerId: "mail", email: "Ada@Example.com" }),
      given,
    );
    expect([form.status, json.status, api.status]).toEqual([302, 302, "fulfilled"]);
    expect(given.mailed).toEqual(["ada@example.com", "ada@example.com", "ada@example.com"]);
  });

  it("an address that is not text is refused with the same error every way", async () => {
    const given = app();
    const browser = given.browser();
    const csrfToken = await browser.csrf();
    const json = await browser.send("/auth/signin/mail", { json: { csrfToken, email: ["ada@example.com"] } });
    const [api] = await Promise.allSettled([given.auth.api.signIn(given.caller(), { providerId: "mail", email: ["ada@example.com"] })]);
    const type = typeOf(api as PromiseSettledResult<unknown>);
    expect(type).not.toBe("fulfilled");
    expect(errorOf(json)).toBe(type);
    expect(given.mailed).toEqual([]);
  });
});
