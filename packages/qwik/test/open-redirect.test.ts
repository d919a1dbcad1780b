/**
 * The open-redirect corpus (core's test/helpers/open-redirect-corpus.ts) through `redirectTo` of both
 * Qwik actions, `useSignIn` (credentials, the OAuth start, and the way to the sign-in page) and
 * `useSignOut`, posted like a plain form and like a script-driven `<Form>` (q-data), on the fixture app
 * served by Qwik City's real middleware.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectStaysOnOrigin, OPEN_REDIRECT_PAYLOADS, payloadName } from "../../core/test/helpers/open-redirect-corpus.js";
import { type FixtureApp, startFixture } from "./fixture-app.js";
import { actionId, CookieJar, postForm, request } from "./http.js";

const SECRET = "qwik-open-redirect-secret-0123456789abcdef0123";

let app: FixtureApp;
const actions = { signIn: "", signOut: "" };
const previousSecret = process.env.AUTH_SECRET;

beforeAll(async () => {
  process.env.AUTH_SECRET = SECRET;
  app = await startFixture();
  const html = await (await request(`${app.origin}/`)).text();
  actions.signIn = actionId(html, "sign-in");
  actions.signOut = actionId(html, "sign-out");
});

afterAll(async () => {
  await app?.close();
  if (previousSecret === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = previousSecret;
});

async function signedInJar(): Promise<CookieJar> {
  const jar = new CookieJar();
  const csrf = (await (await request(`${app.origin}/api/authlib/csrf`, { jar })).json()) as { csrfToken: string };
  await postForm(
    `${app.origin}/api/authlib/callback/credentials`,
    { csrfToken: csrf.csrfToken, username: "ada", password: "lovelace" },
    jar,
  );
  expect(jar.cookies.has("authlib.session-token")).toBe(true);
  return jar;
}

/** One way to hand `redirectTo` to an action: which action, and the form fields around the payload. */
interface ActionInput {
  name: string;
  action: keyof typeof actions;
  signedIn: boolean;
  fields(redirectTo: string): Record<string, string>;
  /** The OAuth start leaves for the provider: the URL to check is the one remembered for the way back. */
  leavesForProvider?: boolean;
}

/** The URL the callback-URL cookie (`<binding HMAC>|<url>`) remembers. */
function rememberedUrl(jar: CookieJar): string | undefined {
  const value = jar.cookies.get("authlib.callback-url");
  if (value === undefined) return undefined;
  const decoded = decodeURIComponent(value);
  return decoded.slice(decoded.indexOf("|") + 1);
}

const actionInputs: ActionInput[] = [
  {
    name: "useSignIn, credentials, options.redirectTo",
    action: "signIn",
    signedIn: false,
    fields: (redirectTo) => ({
      providerId: "credentials",
      "options.username": "ada",
      "options.password": "lovelace",
      "options.redirectTo": redirectTo,
    }),
  },
  {
    name: "useSignIn, credentials, redirectTo",
    action: "signIn",
    signedIn: false,
    fields: (redirectTo) => ({ providerId: "credentials", "options.username": "ada", "options.password": "lovelace", redirectTo }),
  },
  {
    name: "useSignIn without a provider (to the sign-in page)",
    action: "signIn",
    signedIn: false,
    fields: (redirectTo) => ({ redirectTo }),
  },
  {
    name: "useSignIn, the OAuth start, options.redirectTo (remembered for the way back)",
    action: "signIn",
    signedIn: false,
    fields: (redirectTo) => ({ providerId: "example", "options.redirectTo": redirectTo }),
    leavesForProvider: true,
  },
  { name: "useSignOut, redirectTo", action: "signOut", signedIn: true, fields: (redirectTo) => ({ redirectTo }) },
];

describe.each(actionInputs)("$name", (input) => {
  it.each(OPEN_REDIRECT_PAYLOADS.map((payload) => [payloadName(payload), payload]))(
    "%s stays on the origin, with and without script",
    async (_, payload) => {
      for (const endpoint of ["/", "/q-data.json"]) {
        const jar = input.signedIn ? await signedInJar() : new CookieJar();
        const response = await postForm(`${app.origin}${endpoint}?qaction=${actions[input.action]}`, input.fields(payload), jar);
        expect(response.status).toBeLessThan(500);
        if (input.leavesForProvider) {
          expect(new URL(response.headers.get("location") as string).origin).toBe("https://provider.example");
          expectStaysOnOrigin(rememberedUrl(jar), app.origin);
          continue;
        }
        expectStaysOnOrigin(response.headers.get("location"), app.origin);
        const body = await response.text();
        expect(body).not.toMatch(/"[/\\]{2}evil/);
        // The sign-in page keeps the payload as its callbackUrl; core judges it when the page renders.
        const location = new URL(response.headers.get("location") as string, app.origin);
        const callbackUrl = location.pathname === "/api/authlib/signin" ? location.searchParams.get("callbackUrl") : null;
        if (callbackUrl !== null) {
          const page = await (await request(`${app.origin}/api/authlib/signin?${new URLSearchParams({ callbackUrl })}`)).text();
          const field = page.match(/name="callbackUrl" value="([^"]*)"/)?.[1]?.replaceAll("&amp;", "&");
          expectStaysOnOrigin(field, app.origin);
        }
      }
    },
  );
});
