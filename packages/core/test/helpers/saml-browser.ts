/**
 * Drives a sign-in at a SAML IdP fixture (`simplesamlphp.ts`, `samlp-idp.ts`) and captures what the IdP
 * posts to the SP's ACS URL, without an SP: the ACS request is answered here, never sent on.
 *
 * ```ts
 * const browser = await launchChromium();
 * const posted = await signInWithChromium(browser, { startUrl, acsUrl, username: "ada", password: "pw" });
 * posted.samlResponse; // base64, as the IdP posted it; posted.relayState
 * const fast = await signInOverHttp({ startUrl, acsUrl, username: "ada", password: "pw" });
 * ```
 *
 * Both log in through the IdP's own login form: the form that has a `password` field, filled with
 * `username` and `password`. Both IdP fixtures' forms have those field names.
 * - {@link signInWithChromium} uses a real browser (Debian's Chromium through playwright-core): the IdP's
 *   pages, cookies, redirects and its auto-posting form run as they would for a person. Playwright's
 *   routing answers the POST to the ACS URL. Pass a `context` to keep the IdP session between sign-ins.
 * - {@link signInOverHttp} is the same walk with fetch and a cookie jar: redirects followed by hand, forms
 *   read from the HTML and submitted. Fast; for tests that are not about the browser.
 * - {@link readIdpMetadata} reads an IdP metadata document with the browser's own XML parser.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CookieJar } from "./auth-client.js";

/** What an IdP posted to the ACS URL. */
export interface AcsPost {
  /** The `SAMLResponse` field: the base64 response, untouched. */
  samlResponse: string;
  /** The `RelayState` field, when the IdP sent one. */
  relayState: string | undefined;
}

/** Where to start and who signs in. */
export interface IdpSignIn {
  /** The IdP's SSO URL with the SP's `SAMLRequest` (and `RelayState`): what an SP redirects the browser to. */
  startUrl: string;
  /** The SP's ACS URL: the sign-in ends when the IdP posts there. */
  acsUrl: string;
  username: string;
  password: string;
}

/** The sign-in did not reach the ACS URL: the IdP refused it, or showed a page the driver cannot go on from. */
export class IdpSignInError extends Error {
  override name = "IdpSignInError";
}

/** How long a browser sign-in may take before it fails with what the page shows (not a timed assertion). */
const SIGN_IN_LIMIT_MS = 15_000;

function acsPostFrom(body: string): AcsPost {
  const fields = new URLSearchParams(body);
  const samlResponse = fields.get("SAMLResponse");
  if (!samlResponse) throw new IdpSignInError("the IdP posted to the ACS URL without a SAMLResponse");
  return { samlResponse, relayState: fields.get("RelayState") ?? undefined };
}

async function pageSummary(page: Page): Promise<string> {
  const text = await page
    .locator("body")
    .textContent({ timeout: 1000 })
    .catch(() => null);
  const where = new URL(page.url());
  return `${where.origin}${where.pathname}: ${(text ?? "").replace(/\s+/g, " ").slice(0, 1500)}`;
}

/**
 * Signs in at the IdP in Chromium: opens `startUrl`, fills the IdP's login form (unless the context already
 * has an IdP session, when the IdP answers at once) and answers the IdP's POST to `acsUrl` itself.
 */
export async function signInWithChromium(browser: Browser, signIn: IdpSignIn & { context?: BrowserContext }): Promise<AcsPost> {
  const context = signIn.context ?? (await browser.newContext());
  const page = await context.newPage();
  // A missing form fails a step in 10 s, inside a test's own timeout.
  page.setDefaultTimeout(10_000);
  const isAcs = (url: URL) => `${url.origin}${url.pathname}` === signIn.acsUrl;
  let settle: { resolve(post: AcsPost): void; reject(error: Error): void } | undefined;
  const posted = new Promise<AcsPost>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A refusal at the ACS is read by the race below; until then it must not count as unhandled.
  posted.catch(() => undefined);
  await page.route(isAcs, async (route) => {
    const request = route.request();
    try {
      if (request.method() !== "POST")
        throw new IdpSignInError(`the IdP sent the browser to the ACS URL with ${request.method()}, not POST`);
      settle?.resolve(acsPostFrom(request.postData() ?? ""));
      await route.fulfill({ status: 200, contentType: "text/plain", body: "received by the test ACS" });
    } catch (error) {
      settle?.reject(error instanceof Error ? error : new IdpSignInError(String(error)));
      await route.fulfill({ status: 400, contentType: "text/plain", body: "refused by the test ACS" });
    }
  });
  let limit: NodeJS.Timeout | undefined;
  try {
    await page.goto(signIn.startUrl);
    const form = page.locator("form:has(input[name=password])");
    const loginShown = form.waitFor().then(
      () => "login" as const,
      async () => {
        throw new IdpSignInError(`the IdP showed neither a login form nor posted to the ACS URL; it shows ${await pageSummary(page)}`);
      },
    );
    // When the IdP posts at once (an IdP session), the form never shows: that wait's failure is moot.
    loginShown.catch(() => undefined);
    const next = await Promise.race([posted.then(() => "posted" as const), loginShown]);
    if (next === "login") {
      await form.locator("input[name=username]").fill(signIn.username);
      await form.locator("input[name=password]").fill(signIn.password);
      await form.locator("[type=submit]").first().click();
    }
    const overdue = new Promise<never>((_, reject) => {
      limit = setTimeout(() => {
        pageSummary(page).then((summary) => reject(new IdpSignInError(`the IdP did not post to the ACS URL; it shows ${summary}`)), reject);
      }, SIGN_IN_LIMIT_MS);
    });
    return await Promise.race([posted, overdue]);
  } finally {
    clearTimeout(limit);
    await page.close();
    if (!signIn.context) await context.close();
  }
}

/** One HTML form: where it goes, how, and its fields (named inputs, with their values). */
interface HtmlForm {
  action: string;
  method: string;
  fields: Array<[string, string]>;
  hasPassword: boolean;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#")
      return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function tagAttributes(tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of tag.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = match[1]?.toLowerCase();
    if (name && !name.startsWith("<")) attributes[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/**
 * The forms of an IdP page, read with two patterns: the pages come from the two fixtures (SimpleSAMLphp's
 * templates, samlp's), whose forms are plain `<form>` and `<input>` tags, not arbitrary HTML.
 */
function htmlForms(html: string, pageUrl: string): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const form = tagAttributes(match[1] ?? "");
    const fields: Array<[string, string]> = [];
    let hasPassword = false;
    for (const input of (match[2] ?? "").matchAll(/<input\b[^>]*>/gi)) {
      const attributes = tagAttributes(input[0].slice(6));
      const type = (attributes.type ?? "text").toLowerCase();
      if (type === "password") hasPassword = true;
      if (!attributes.name || ["submit", "button", "image", "reset"].includes(type)) continue;
      if ((type === "checkbox" || type === "radio") && !("checked" in attributes)) continue;
      fields.push([attributes.name, attributes.value ?? ""]);
    }
    forms.push({ action: new URL(form.action ?? "", pageUrl).href, method: (form.method ?? "get").toLowerCase(), fields, hasPassword });
  }
  return forms;
}

/** Follows redirects by hand (the jar sees every Set-Cookie); answers the final response and its URL. */
async function fetchFollowing(
  jar: CookieJar,
  url: string,
  init: { method: string; body?: URLSearchParams },
): Promise<{ response: Response; url: string }> {
  let current = url;
  let method = init.method;
  let body = init.body;
  for (let hop = 0; hop < 10; hop++) {
    const headers = new Headers();
    if (jar.cookies.size > 0) headers.set("cookie", jar.header());
    if (body) headers.set("content-type", "application/x-www-form-urlencoded");
    const response = await fetch(current, { method, body, headers, redirect: "manual" });
    jar.apply(response);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return { response, url: current };
    await response.body?.cancel();
    current = new URL(location, current).href;
    // 303 (and, as browsers do, 301/302 after a POST) turn into a GET; 307/308 repeat the request.
    if (response.status !== 307 && response.status !== 308) {
      method = "GET";
      body = undefined;
    }
  }
  throw new IdpSignInError(`more than 10 redirects from ${url}`);
}

/**
 * Signs in at the IdP over plain HTTP: fetch with a cookie jar (pass `jar` to keep the IdP session), the
 * login form found by its password field and submitted with its hidden fields, until a page carries a
 * form to `acsUrl`, whose fields are answered.
 */
export async function signInOverHttp(signIn: IdpSignIn & { jar?: CookieJar }): Promise<AcsPost> {
  const jar = signIn.jar ?? new CookieJar();
  let step = await fetchFollowing(jar, signIn.startUrl, { method: "GET" });
  let loggedIn = false;
  for (let page = 0; page < 5; page++) {
    const html = await step.response.text();
    const forms = htmlForms(html, step.url);
    const toAcs = forms.find((form) => form.action === signIn.acsUrl);
    if (toAcs) return acsPostFrom(new URLSearchParams(toAcs.fields).toString());
    const login = forms.find((form) => form.hasPassword);
    if (!login || loggedIn) {
      const text = decodeEntities(html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/g, " ")).replace(/\s+/g, " ");
      const where = new URL(step.url);
      throw new IdpSignInError(
        `the IdP did not post to the ACS URL; it answered HTTP ${step.response.status} at ${where.origin}${where.pathname}: ${text.slice(0, 1500)}`,
      );
    }
    const fields = new URLSearchParams(login.fields.filter(([name]) => name !== "username" && name !== "password"));
    fields.set("username", signIn.username);
    fields.set("password", signIn.password);
    loggedIn = true;
    step = await fetchFollowing(jar, login.action, login.method === "post" ? { method: "POST", body: fields } : { method: "GET" });
  }
  throw new IdpSignInError("the IdP sent more than 5 pages without posting to the ACS URL");
}

/** What an SP takes from an IdP's metadata. */
export interface IdpMetadata {
  entityId: string | null;
  /** `SingleSignOnService` locations by binding URI. */
  singleSignOnServices: Record<string, string>;
  /** The base64 bodies of the `KeyDescriptor` certificates usable for signing (`use="signing"` or no `use`). */
  signingCertificates: string[];
}

/** Reads `xml` (an IdP's SAML metadata) with Chromium's XML parser, by namespace; throws if it does not parse. */
export async function readIdpMetadata(page: Page, xml: string): Promise<IdpMetadata> {
  return page.evaluate((source) => {
    const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
    const DS = "http://www.w3.org/2000/09/xmldsig#";
    const document = new DOMParser().parseFromString(source, "application/xml");
    if (document.getElementsByTagName("parsererror").length > 0) throw new Error("the metadata is not well-formed XML");
    const root = document.documentElement;
    const idp = root.getElementsByTagNameNS(MD, "IDPSSODescriptor")[0];
    const services: Record<string, string> = {};
    const certificates: string[] = [];
    if (idp) {
      for (const service of Array.from(idp.getElementsByTagNameNS(MD, "SingleSignOnService"))) {
        services[service.getAttribute("Binding") ?? ""] = service.getAttribute("Location") ?? "";
      }
      for (const key of Array.from(idp.getElementsByTagNameNS(MD, "KeyDescriptor"))) {
        const use = key.getAttribute("use");
        if (use !== null && use !== "signing") continue;
        for (const certificate of Array.from(key.getElementsByTagNameNS(DS, "X509Certificate"))) {
          certificates.push((certificate.textContent ?? "").replace(/\s+/g, ""));
        }
      }
    }
    const isEntity = root.namespaceURI === MD && root.localName === "EntityDescriptor";
    return { entityId: isEntity ? root.getAttribute("entityID") : null, singleSignOnServices: services, signingCertificates: certificates };
  }, xml);
}
