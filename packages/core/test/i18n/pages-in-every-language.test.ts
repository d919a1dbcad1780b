/**
 * Every built-in page, served by a real instance in each shipped language, shows no English UI string.
 * The pseudo-locale test (`pseudo-locale.test.ts`) proves each text comes from the catalog; this one
 * proves each catalog says it in its own language, as a user meets it: the page is fetched with
 * `Accept-Language`, and each of its visible texts and attribute texts (title, aria-label, placeholder,
 * alt, button values) is compared with the same page in English. A text found in both is an English
 * string left in the page, apart from the user's and the app's data (address, name, brand names) and the
 * few words that are the same in that language (listed below, each with its language).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pkceChallenge } from "../../src/features/authorization-server/pkce.js";
import { authorizeIn, startServerApp } from "../authorization-server/app.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { organizationsApp, postJson } from "../organizations/helpers.js";
import { type Browser, linkIn, mailTo, post } from "../password/helpers.js";
import { firstFactor, twoFactorApp, userWithTotp } from "../two-factor/helpers.js";

const LANGUAGES = ["de", "es", "fr", "ja", "pt", "zh"] as const;

/** Words a language shares with English (loanwords and names), which a page may show in both. */
const SAME_IN: Readonly<Record<(typeof LANGUAGES)[number], readonly string[]>> = {
  de: ["Passkey", "Passkeys", "Code", "E-Mail", "Name"],
  es: ["Error"],
  fr: ["Code", "Passkey", "Passkeys"],
  ja: [],
  pt: [],
  zh: [],
};

/** The user's and the app's data, shown as they are in every language. */
const DATA = [
  /@/,
  /^https?:\/\//,
  /^localhost:3000$/,
  /^authlib$/i,
  /^Ada$/,
  /^Acme$/,
  /^_authlib-challenge\./,
  /^authlib-verify=[0-9a-f]+$/,
  // An authorization server's client, the app's own scope description, and scope names (one or a list).
  /^Web App$/,
  /^Read your projects$/,
  /^((openid|profile|email|offline_access|read:projects|admin:all) ?)+$/,
  // The consent form's decision: what its `<button>`s submit (their shown text is translated).
  /^(allow|deny)$/,
];

function decode(value: string): string {
  return value
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&nbsp;", " ")
    .replaceAll("&amp;", "&");
}

/** The texts a person or a screen reader meets on a page: each text between tags, and the attribute texts. */
function textsOf(html: string): Set<string> {
  const body = html.replace(/<style>[\s\S]*?<\/style>/g, "").replace(/<script[\s\S]*?<\/script>/g, "");
  const texts = new Set<string>();
  const add = (raw: string) => {
    const text = decode(raw).replace(/\s+/g, " ").trim();
    // Texts with a word in them: numbers, codes and punctuation are not language.
    if (/\p{L}{2}/u.test(text)) texts.add(text);
  };
  for (const part of body.split(/<[^>]*>/)) add(part);
  for (const tag of body.matchAll(/<([a-z]+)\b([^>]*)>/g)) {
    const attrs = tag[2] ?? "";
    for (const attr of attrs.matchAll(/\s(title|aria-label|placeholder|alt|value)="([^"]*)"/g)) {
      // A value is text only on buttons (hidden and typed-in fields carry data).
      if (attr[1] === "value" && !(tag[1] === "button" || /type="(submit|button|reset)"/.test(attrs))) continue;
      add(attr[2] ?? "");
    }
  }
  return texts;
}

/** The texts of `translated` that are also in `english` and are neither data nor a word the language shares. */
function englishLeftIn(translated: string, english: string, language: (typeof LANGUAGES)[number]): string[] {
  // Compared without case: "Sign in" left where English says "Sign In" is still English.
  const inEnglish = new Set([...textsOf(english)].map((text) => text.toLowerCase()));
  return [...textsOf(translated)].filter(
    (text) => inEnglish.has(text.toLowerCase()) && !SAME_IN[language].includes(text) && !DATA.some((data) => data.test(text)),
  );
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: Awaited<ReturnType<typeof twoFactorApp>>;
/** Ada, signed in with a password and an authenticator app: the account page with every section. */
let signedIn: Browser;
/** A browser between the password and the code: the second step's page. */
let atSecondStep: Browser;
/** The link of a password-reset mail: the page that sets a new password. */
let resetLink: string;

/** An app with organizations (the in-memory adapter: the hosted-db adapter has no organizations yet). */
let orgs: ReturnType<typeof organizationsApp>;
/** Ada owns Acme (a domain claimed, an invitation waiting); Bob is the invited address, signed up. */
let owner: Browser;
let invitee: Browser;
let organizationId: string;
let invitationLink: string;

/** An authorization server (real HTTP): Ada gave "Web App" a grant; the consent page asks her again (`prompt=consent`). */
let oauth: Awaited<ReturnType<typeof startServerApp>>;
let grantor: Browser;
let consentQuery: string;
let sensitiveConsentQuery: string;

async function startAuthorizationServer() {
  const redirectUri = "https://app.example/callback";
  const secret = "confidential-client-secret-0123456789abcdef";
  const verifier = "a-verifier-that-is-long-enough-0123456789-abcdefghijkl";
  oauth = await startServerApp({
    config: {
      authorizationServer: {
        scopes: {
          "read:projects": { description: "Read your projects" },
          "admin:all": { description: "Read your projects", sensitive: true },
        },
        clients: [{ clientId: "web", clientSecret: secret, name: "Web App", redirectUris: [redirectUri] }],
      },
    },
  });
  grantor = await oauth.signedUp("ada@example.com");
  const query = async (scope: string) =>
    new URLSearchParams({
      client_id: "web",
      redirect_uri: redirectUri,
      response_type: "code",
      scope,
      state: "s1",
      code_challenge: await pkceChallenge(verifier),
      code_challenge_method: "S256",
      prompt: "consent",
    }).toString();
  consentQuery = await query("openid profile email offline_access read:projects");
  sensitiveConsentQuery = await query("openid admin:all");
  const { location } = await authorizeIn(grantor, `/auth/oauth2/authorize?${consentQuery}`);
  const code = new URL(location).searchParams.get("code") as string;
  const exchanged = await fetch(`${oauth.issuer}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`web:${secret}`)}` },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier }),
  });
  expect(exchanged.status).toBe(200);
}

beforeAll(async () => {
  await startAuthorizationServer();
  orgs = organizationsApp({ organizations: { resolveTxt: async () => [] } });
  owner = await orgs.signedUp("ada@example.com");
  invitee = await orgs.signedUp("bob@example.com");
  organizationId = (await postJson(owner, "create", { name: "Acme", slug: "acme" })).body.organization.id;
  await postJson(owner, "domain-add", { organizationId, domain: "example.com" });
  await postJson(owner, "invite", { organizationId, email: "bob@example.com", role: "admin" });
  const invitation = orgs.linkTo("bob@example.com", "/auth/organization/invitation");
  invitationLink = `${invitation.pathname}${invitation.search}`;
  smtp = await startSmtpServer();
  app = await twoFactorApp(smtp);
  ({ browser: signedIn } = await userWithTotp(smtp, app, "ada@example.com"));
  ({ browser: atSecondStep } = await firstFactor(app, "ada@example.com"));
  const since = smtp.mails.length;
  await post(app.browser(), "/auth/password/forgot", { email: "ada@example.com" });
  const link = linkIn(mailTo(smtp, "ada@example.com", since), "/auth/password/reset");
  resetLink = `${link.pathname}${link.search}`;
});

afterAll(async () => {
  await oauth?.close();
  await smtp?.close();
  await closeSharedPglite();
});

/** The built-in pages a visitor and a signed-in user can reach, the browser each is seen in, and its status. */
const PAGES: ReadonlyArray<[path: () => string, who: () => Browser, status: number]> = [
  [() => "/auth/signin", () => app.browser(), 200],
  [() => "/auth/signin?error=CredentialsSignin", () => app.browser(), 200],
  [() => "/auth/signin?error=RecentSignInRequired", () => app.browser(), 200],
  [() => "/auth/signin?error=OAuthAccountNotLinked", () => app.browser(), 200],
  [() => "/auth/signout", () => signedIn, 200],
  [() => "/auth/error", () => app.browser(), 200],
  [() => "/auth/error?error=Verification", () => app.browser(), 403],
  [() => "/auth/error?error=AccessDenied", () => app.browser(), 403],
  [() => "/auth/error?error=Configuration", () => app.browser(), 500],
  [() => "/auth/verify-request", () => app.browser(), 200],
  [() => "/auth/password/sign-up", () => app.browser(), 200],
  [() => "/auth/password/forgot", () => app.browser(), 200],
  [() => resetLink, () => app.browser(), 200], // the link of a reset mail
  [() => "/auth/account", () => signedIn, 200],
  [() => "/auth/account/deleted", () => app.browser(), 200],
  [() => "/auth/two-factor", () => atSecondStep, 200],
  [() => "/auth/organization", () => owner, 200],
  [() => `/auth/organization?organizationId=${organizationId}&done=invited`, () => owner, 200],
  [() => `/auth/organization?organizationId=${organizationId}&error=OrganizationPolicy`, () => owner, 200],
  [() => "/auth/organization?organizationId=unknown", () => owner, 404],
  [() => invitationLink, () => orgs.browser(), 200], // the link of an invitation mail, signed out
  [() => invitationLink, () => invitee, 200], // … opened by the invited address: the accept button
  [() => invitationLink, () => owner, 403], // … by another account
  [() => "/auth/organization/invitation?id=unknown&token=unknown", () => invitee, 400],
  [() => `/auth/oauth2/authorize?${consentQuery}`, () => grantor, 200], // the consent page
  [() => `/auth/oauth2/authorize?${sensitiveConsentQuery}`, () => grantor, 200], // … a sensitive scope: the second-factor alert
  [() => "/auth/oauth2/device", () => grantor, 200],
  [() => "/auth/account", () => grantor, 200], // with its connected applications
];

async function render(path: string, browser: Browser, language: string, status: number): Promise<string> {
  const response = await browser.send(path, { headers: { "accept-language": language } });
  expect(response.status, `${path} in ${language}`).toBe(status);
  return response.text();
}

describe("every built-in page in every shipped language", () => {
  // Named by the path (the reset link's is made in beforeAll, so its name is its route).
  const cases = PAGES.map(([path, who, status]) => ({
    name: `${path.toString().match(/["`]([^"`]+)["`]/)?.[1] ?? (path.toString().includes("invitationLink") ? "/auth/organization/invitation?id=…" : "/auth/password/reset?token=…")} (${who.toString().match(/=> (\w+)/)?.[1]})`,
    path,
    who,
    status,
  }));
  it.each(cases)("$name shows no English UI string", async (page) => {
    const [path, browser] = [page.path(), page.who()];
    const english = await render(path, browser, "en", page.status);
    // The page has English words to leave behind: a page that says nothing proves nothing.
    expect(textsOf(english).size, path).toBeGreaterThan(2);
    const left: Record<string, string[]> = {};
    for (const language of LANGUAGES) {
      const translated = await render(path, browser, language, page.status);
      expect(translated, `${path} in ${language}`).toMatch(new RegExp(`<html lang="${language}"`));
      left[language] = englishLeftIn(translated, english, language);
    }
    expect(left, path).toEqual(Object.fromEntries(LANGUAGES.map((language) => [language, []])));
  });

  it("the comparison finds an English string left in a page", () => {
    const english = '<html lang="en"><h1>Sign in</h1><button type="submit" value="Continue">Continue</button></html>';
    const mixed = '<html lang="de"><h1>Anmelden</h1><button type="submit" value="Continue">Weiter</button></html>';
    expect(englishLeftIn(mixed, english, "de")).toEqual(["Continue"]);
    expect(englishLeftIn("<h1>ada@example.com</h1><p>Passkey</p>", "<h1>ada@example.com</h1><p>Passkey</p>", "de")).toEqual([]);
  });
});
