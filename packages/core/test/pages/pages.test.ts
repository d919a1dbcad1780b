import { describe, expect, it } from "vitest";
import {
  type PageProvider,
  type PageResult,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type SignInPageParams,
} from "../../src/pages/index.js";
import { PAGE_CSS } from "../../src/pages/styles.js";
import { DEFAULT_BRAND_COLOR, resolveTheme, toSafeCssColor, toSafeImageUrl, toSafeNavigationUrl } from "../../src/pages/theme.js";
import type { Theme } from "../../src/types/config.js";

// --- helpers -------------------------------------------------------------------------------------------

const ORIGIN = "https://app.example.com";
const BASE = `${ORIGIN}/auth`;

interface Tag {
  name: string;
  attrs: Record<string, string>;
}

// preact-render-to-string writes every attribute value in double quotes with `"` escaped, and escapes `<`
// in text, so this regex finds exactly the tags a browser would see.
function tags(html: string): Tag[] {
  const result: Tag[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/"]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const attr of match[2].matchAll(/\s+([^\s=>/"]+)(?:="([^"]*)")?/g)) attrs[attr[1].toLowerCase()] = attr[2] ?? "";
    result.push({ name: match[1].toLowerCase(), attrs });
  }
  return result;
}

const tagsNamed = (html: string, name: string) => tags(html).filter((tag) => tag.name === name);

// How the renderer escapes text and attribute values.
function escaped(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll('"', "&quot;");
}

function decode(value: string): string {
  return value.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

function styleText(html: string): string {
  const match = /<style>([\s\S]*?)<\/style>/.exec(html);
  if (!match) throw new Error("no <style>");
  return match[1];
}

function isSafeUrl(url: string): boolean {
  return (url.startsWith("/") && !url.startsWith("//")) || /^https?:\/\//.test(url) || url.startsWith("data:image/");
}

/** The invariants every page must keep, whatever the input. */
function expectInert(html: string): void {
  expect(html.startsWith('<!DOCTYPE html><html lang="en"')).toBe(true);
  // The one script a page may load: the library's own passkey script, same origin, versioned, no inline code.
  for (const script of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/gi)) {
    expect(script[1]).toMatch(new RegExp(`^ src="${BASE}/webauthn-script\\?v=[\\w-]+" defer$`));
    expect(script[2]).toBe("");
  }
  expect(html.match(/<script/gi)?.length ?? 0).toBe([...html.matchAll(/<script [^>]*><\/script>/gi)].length);
  expect(html).not.toMatch(/<link/i);
  expect(html).not.toMatch(/<iframe|<object|<embed/i);
  expect(tagsNamed(html, "style")).toHaveLength(1);
  expect(styleText(html)).not.toContain("</");
  for (const tag of tags(html)) {
    for (const [name, value] of Object.entries(tag.attrs)) {
      expect(name.startsWith("on"), `${tag.name} has ${name}`).toBe(false);
      expect(name).not.toBe("style");
      if (name === "href" || name === "src" || name === "action" || name === "formaction") {
        expect(isSafeUrl(decode(value)), `${tag.name} ${name}=${value}`).toBe(true);
      }
    }
  }
}

/** Every visible input has an id and a <label for> that points at it. */
function expectLabelledInputs(html: string): void {
  const labelTargets = new Set(tagsNamed(html, "label").map((label) => label.attrs.for));
  const ids = tags(html)
    .map((tag) => tag.attrs.id)
    .filter((id) => id !== undefined);
  expect(new Set(ids).size).toBe(ids.length);
  for (const input of tagsNamed(html, "input")) {
    if (input.attrs.type === "hidden") continue;
    expect(input.attrs.id).toBeTruthy();
    expect(labelTargets.has(input.attrs.id)).toBe(true);
  }
}

function hiddenValues(form: string, name: string): string[] {
  return tagsNamed(form, "input")
    .filter((input) => input.attrs.type === "hidden" && input.attrs.name === name)
    .map((input) => decode(input.attrs.value));
}

/** The forms of a page, as HTML snippets. */
function forms(html: string): string[] {
  // The passkey registration form is driven by the passkey script (it never submits): not a POST form.
  return [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((match) => match[0]).filter((form) => !form.includes("data-webauthn-register"));
}

function alertText(html: string): string | undefined {
  const match = /<div class="alert" role="alert">([\s\S]*?)<\/div>/.exec(html);
  return match
    ? decode(
        match[1]
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          .trim(),
      )
    : undefined;
}

const github: PageProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth",
  signinUrl: `${BASE}/signin/github`,
  callbackUrl: `${BASE}/callback/github`,
  style: { brandColor: "#24292f", text: "#fff" },
};
const oidc: PageProvider = {
  id: "corp",
  name: "Corp SSO",
  type: "oidc",
  signinUrl: `${BASE}/signin/corp`,
  callbackUrl: `${BASE}/callback/corp`,
};
const email: PageProvider = {
  id: "email",
  name: "Email",
  type: "email",
  signinUrl: `${BASE}/signin/email`,
  callbackUrl: `${BASE}/callback/email`,
};
const credentials: PageProvider = {
  id: "credentials",
  name: "Credentials",
  type: "credentials",
  signinUrl: `${BASE}/signin/credentials`,
  callbackUrl: `${BASE}/callback/credentials`,
  credentials: {
    username: { label: "Username", placeholder: "jsmith", autocomplete: "username", required: true },
    password: { label: "Password", type: "password", autocomplete: "current-password" },
    pin: {},
  },
};
const passkey: PageProvider = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  signinUrl: `${BASE}/signin/passkey`,
  callbackUrl: `${BASE}/callback/passkey`,
};

function signIn(overrides: Partial<SignInPageParams> = {}): PageResult {
  return renderSignInPage({
    providers: [github, oidc, email, credentials, passkey],
    csrfToken: "csrf-token-123",
    callbackUrl: `${ORIGIN}/dashboard`,
    theme: {},
    ...overrides,
  });
}

// --- sign-in ---------------------------------------------------------------------------------------------

describe("sign-in page", () => {
  it("renders a complete, accessible document", () => {
    const { status, html } = signIn();
    expect(status).toBe(200);
    expectInert(html);
    expectLabelledInputs(html);
    expect(html).toContain("<title>Sign In</title>");
    expect(html).toContain("<h1>Sign In</h1>");
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toContain('<meta charset="utf-8"/>');
    expect(html).not.toContain('role="alert"');
  });

  it("renders one POST form per provider, each with the CSRF token and the callback URL", () => {
    const { html } = signIn();
    const all = forms(html);
    expect(all).toHaveLength(4); // the passkey section has no POST form (covered in test/webauthn/passkey-negative.test.ts)
    for (const form of all) {
      expect(tagsNamed(form, "form")[0].attrs.method).toBe("post");
      expect(hiddenValues(form, "csrfToken")).toEqual(["csrf-token-123"]);
      expect(hiddenValues(form, "callbackUrl")).toEqual([`${ORIGIN}/dashboard`]);
      const buttons = tagsNamed(form, "button");
      expect(buttons).toHaveLength(1);
      expect(buttons[0].attrs.type).toBe("submit");
    }
    expect(all.map((form) => tagsNamed(form, "form")[0].attrs.action)).toEqual([
      `${BASE}/signin/github`,
      `${BASE}/signin/corp`,
      `${BASE}/signin/email`,
      `${BASE}/callback/credentials`,
    ]);
    expect(html).toContain("Sign in with GitHub");
    expect(html).toContain("Sign in with Corp SSO");
    expect(html).toContain("Sign in with Email");
    expect(html).toContain("Sign in with Credentials");
    expect(html).toContain("Sign in with Passkey"); // the passkey section: a button and the script-driven registration form
    expect(html).toContain("Register a passkey");
  });

  it("renders the email field, prefilled", () => {
    const { html } = signIn({ email: "jane@example.com" });
    const [input] = tagsNamed(html, "input").filter((tag) => tag.attrs.name === "email");
    expect(input.attrs).toMatchObject({ type: "email", autocomplete: "email", value: "jane@example.com" });
    expect(input.attrs).toHaveProperty("required");
    const label = tagsNamed(html, "label").find((tag) => tag.attrs.for === input.attrs.id);
    expect(label).toBeDefined();
  });

  it("renders one labelled input per credentials field, with only the known attributes", () => {
    const { html } = signIn();
    const form = forms(html)[3];
    const inputs = tagsNamed(form, "input").filter((tag) => tag.attrs.type !== "hidden");
    expect(inputs.map((input) => input.attrs.name)).toEqual(["username", "password", "pin"]);
    expect(inputs[0].attrs).toMatchObject({ type: "text", placeholder: "jsmith", autocomplete: "username", required: "" });
    expect(inputs[1].attrs).toMatchObject({ type: "password", autocomplete: "current-password" });
    expect(inputs[1].attrs).not.toHaveProperty("required");
    expect(inputs[2].attrs.type).toBe("text"); // default type
    expect(form).toContain(">Username</label>");
    expect(form).toContain(">Password</label>");
    expect(form).toContain(">pin</label>"); // label defaults to the field name
    expectLabelledInputs(form);
  });

  it('names every form that has fields after its button, so a screen reader tells the page\'s several "Email" fields apart', () => {
    const { html } = signIn();
    const labels = [...html.matchAll(/<form [^>]*aria-label="([^"]+)"/g)].map((match) => match[1]);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain("Sign in with Credentials");
    for (const label of labels) expect(html).toContain(label.startsWith("Register") ? "Register a passkey" : `${label}</button>`);
  });

  it("puts the passkey status right under the passkey button, above the registration form (in view where the person clicked)", () => {
    const { html } = signIn();
    const button = html.indexOf("data-webauthn-signin");
    const status = html.indexOf("data-webauthn-status");
    const registration = html.indexOf("data-webauthn-register");
    expect(button).toBeGreaterThan(0);
    expect(status).toBeGreaterThan(button);
    expect(registration).toBeGreaterThan(status);
  });

  it("does not spread arbitrary credential attributes (no event handlers, no odd input types)", () => {
    const { html } = signIn({
      providers: [
        {
          ...credentials,
          credentials: { code: { label: "Code", type: "image", onfocus: "alert(1)", style: "x", src: "javascript:alert(1)" } },
        },
      ],
    });
    expectInert(html);
    const input = tagsNamed(html, "input").find((tag) => tag.attrs.name === "code");
    expect(input?.attrs.type).toBe("text");
    expect(html).not.toContain("alert(1)");
  });

  it("puts separators between groups: consecutive OAuth buttons are one group", () => {
    const count = (html: string) => html.split('class="divider"').length - 1;
    expect(count(signIn().html)).toBe(3); // [github, corp] | email | credentials | passkey
    expect(count(signIn({ providers: [github, oidc] }).html)).toBe(0);
    expect(count(signIn({ providers: [email, github, credentials] }).html)).toBe(2);
    expect(count(signIn({ providers: [github, passkey] }).html)).toBe(1);
  });

  it("says so when no provider can be shown", () => {
    const { html } = signIn({ providers: [] });
    expect(forms(html)).toHaveLength(0);
    expect(html).toContain("No sign-in methods are configured.");
  });

  it("leaves out the callbackUrl field when it is empty", () => {
    const { html } = signIn({ callbackUrl: "" });
    for (const form of forms(html)) expect(hiddenValues(form, "callbackUrl")).toEqual([]);
  });

  it("uses a custom title for <title> and the heading", () => {
    const { html } = signIn({ title: "Sign in to Acme" });
    expect(html).toContain("<title>Sign in to Acme</title>");
    expect(html).toContain("<h1>Sign in to Acme</h1>");
  });

  const messages: Array<[string, string]> = [
    ["OAuthSignin", "Try signing in with a different account."],
    ["OAuthSignInError", "Try signing in with a different account."],
    ["OAuthCallbackError", "Try signing in with a different account."],
    ["OAuthCreateAccount", "Try signing in with a different account."],
    ["EmailCreateAccount", "Try signing in with a different account."],
    ["Callback", "Try signing in with a different account."],
    ["OAuthAccountNotLinked", "To confirm your identity, sign in with the same account you used originally."],
    ["EmailSignin", "The e-mail could not be sent."],
    ["EmailSignInError", "The e-mail could not be sent."],
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    ["SessionRequired", "Please sign in to access this page."],
    ["MissingCSRF", "Your sign-in form expired. Please try again."],
    ["AccessDenied", "You do not have permission to sign in."],
    ["Verification", "The sign-in link is no longer valid. It may have been used already or it may have expired."],
    ["RateLimited", "Too many attempts. Please wait a few minutes and try again."],
    ["Unknown", "Unable to sign in."],
    ["default", "Unable to sign in."],
    ["constructor", "Unable to sign in."],
    ["__proto__", "Unable to sign in."],
    ["toString", "Unable to sign in."],
    ["hasOwnProperty", "Unable to sign in."],
    ["credentialssignin", "Unable to sign in."],
  ];
  it.each(messages)("shows the message for error=%s in an alert", (error, message) => {
    const { status, html } = signIn({ error });
    expect(status).toBe(200);
    expect(alertText(html)).toBe(message);
    expect(alertText(html)).not.toContain(error);
  });

  it("shows an identifier-like code with CredentialsSignin only", () => {
    expect(alertText(signIn({ error: "CredentialsSignin", code: "invalid_password" }).html)).toBe(
      "Sign in failed. Check the details you provided are correct. Error code: invalid_password",
    );
    expect(alertText(signIn({ error: "CredentialsSignin", code: "credentials" }).html)).toBe(
      "Sign in failed. Check the details you provided are correct.",
    );
    expect(signIn({ error: "OAuthCallbackError", code: "invalid_password" }).html).not.toContain("invalid_password");
    expect(signIn({ error: "CredentialsSignin", code: "Call 555-0100 to unlock your account" }).html).not.toContain("555-0100");
    expect(signIn({ code: "invalid_password" }).html).not.toContain("invalid_password");
  });
});

// --- injection -------------------------------------------------------------------------------------------

const PAYLOADS = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "</style><script>alert(1)</script>",
  "</title><script>alert(1)</script>",
  "javascript:alert(1)",
  '" autofocus onfocus="alert(1)',
  "&lt;script&gt;alert(1)&lt;/script&gt;",
];

// Where a value from the request or the configuration lands, and whether it is rendered at all.
type Injection = { field: string; rendered: boolean; render: (payload: string) => string };

const INJECTIONS: Injection[] = [
  { field: "callbackUrl", rendered: true, render: (p) => signIn({ callbackUrl: p }).html },
  { field: "error", rendered: false, render: (p) => signIn({ error: p }).html },
  { field: "code", rendered: false, render: (p) => signIn({ error: "CredentialsSignin", code: p }).html },
  { field: "email", rendered: true, render: (p) => signIn({ email: p }).html },
  { field: "csrfToken", rendered: true, render: (p) => signIn({ csrfToken: p }).html },
  { field: "title", rendered: true, render: (p) => signIn({ title: p }).html },
  {
    field: "provider name",
    rendered: true,
    render: (p) =>
      signIn({
        providers: [
          { ...github, name: p },
          { ...email, name: p },
        ],
      }).html,
  },
  {
    field: "provider id",
    rendered: false,
    render: (p) =>
      signIn({
        providers: [
          { ...github, id: p },
          { ...email, id: p },
        ],
      }).html,
  },
  {
    field: "credential label",
    rendered: true,
    render: (p) => signIn({ providers: [{ ...credentials, credentials: { username: { label: p } } }] }).html,
  },
  {
    field: "credential placeholder",
    rendered: true,
    render: (p) => signIn({ providers: [{ ...credentials, credentials: { username: { placeholder: p } } }] }).html,
  },
  {
    field: "credential autocomplete",
    rendered: true,
    render: (p) => signIn({ providers: [{ ...credentials, credentials: { username: { autocomplete: p } } }] }).html,
  },
  { field: "credential name", rendered: true, render: (p) => signIn({ providers: [{ ...credentials, credentials: { [p]: {} } }] }).html },
  {
    field: "signout callbackUrl",
    rendered: true,
    render: (p) => renderSignOutPage({ actionUrl: `${BASE}/signout`, csrfToken: "t", callbackUrl: p, theme: {} }).html,
  },
  {
    field: "signout csrfToken",
    rendered: true,
    render: (p) => renderSignOutPage({ actionUrl: `${BASE}/signout`, csrfToken: p, theme: {} }).html,
  },
  {
    field: "error page error",
    rendered: false,
    render: (p) => renderErrorPage({ error: p, signinUrl: `${BASE}/signin`, homeUrl: ORIGIN, theme: {} }).html,
  },
  { field: "verify host", rendered: true, render: (p) => renderVerifyRequestPage({ host: p, homeUrl: ORIGIN, theme: {} }).html },
];

describe("injection: user and configuration values are rendered only escaped", () => {
  const cases = INJECTIONS.flatMap((injection) => PAYLOADS.map((payload) => [injection.field, payload, injection] as const));
  it.each(cases)("%s = %s", (_field, payload, injection) => {
    const html = injection.render(payload);
    expectInert(html);
    expectLabelledInputs(html);
    if (/[<"&]/.test(payload)) expect(html).not.toContain(payload);
    if (injection.rendered) expect(html).toContain(escaped(payload));
    else expect(html).not.toContain(escaped(payload));
  });

  it("leaves out form actions and links that are not http(s) or same-origin paths", () => {
    for (const bad of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,x",
      "//evil.example/x",
      "/\\evil.example",
    ]) {
      const signin = signIn({
        providers: [
          { ...github, signinUrl: bad },
          { ...credentials, callbackUrl: bad },
        ],
      }).html;
      const signout = renderSignOutPage({ actionUrl: bad, csrfToken: "t", theme: {} }).html;
      const error = renderErrorPage({ error: "AccessDenied", signinUrl: bad, homeUrl: bad, theme: {} }).html;
      const verify = renderVerifyRequestPage({ host: "app.example.com", homeUrl: bad, theme: {} }).html;
      for (const html of [signin, signout, error, verify]) {
        expectInert(html);
        expect(html).not.toMatch(/javascript:|evil\.example|data:text/i);
      }
      expect(tagsNamed(signout, "form")[0].attrs).not.toHaveProperty("action");
      expect(tagsNamed(error, "a").map((a) => a.attrs.href)).toEqual(["/"]);
    }
  });
});

// --- theme -----------------------------------------------------------------------------------------------

describe("theme", () => {
  const brandRule = (html: string) => /:root\{--brand:([^;]*);--brand-text:([^}]*)\}/.exec(styleText(html))?.slice(1);

  it("uses the default brand colours without a theme", () => {
    expect(brandRule(signIn().html)).toEqual(["#2563eb", "#ffffff"]);
  });

  it.each([
    "#ff0000",
    "#f00",
    "#ff000080",
    "rgb(255, 0, 0)",
    "rgba(255 0 0 / 50%)",
    "hsl(210deg 50% 40%)",
    "oklch(60% 0.15 250)",
    "RebeccaPurple",
    "teal",
  ])("accepts brandColor %s", (color) => {
    const { html } = signIn({ theme: { brandColor: color, buttonText: color } });
    expect(brandRule(html)).toEqual([color, color]);
  });

  it.each([
    "red;}</style><script>alert(1)</script>",
    "red;background:url(https://evil.example/x)",
    "url(javascript:alert(1))",
    "expression(alert(1))",
    "rgb(0,0,0);}body{display:none",
    "rgb(0 0 0) ; color: red",
    "var(--x)",
    "#12345g",
    "#12345",
    "bluish",
    "red\n}",
    "",
  ])("rejects brandColor %j and falls back to the default", (color) => {
    const { html } = signIn({ theme: { brandColor: color, buttonText: color } });
    expectInert(html);
    expect(brandRule(html)).toEqual(["#2563eb", "#ffffff"]);
    if (color.length > 3) expect(html).not.toContain(color);
    expect(html).not.toContain("evil.example");
  });

  it("colours provider buttons only with valid colours", () => {
    const good = signIn({ providers: [github] }).html;
    expect(styleText(good)).toContain(".provider-0{--provider-bg:#24292f;--provider-text:#fff}");
    expect(good).toContain('class="button button-provider provider-0"');

    const bad = signIn({ providers: [{ ...github, style: { brandColor: "red;}</style><script>alert(1)</script>", text: "x;}" } }] }).html;
    expectInert(bad);
    expect(styleText(bad)).not.toContain(".provider-0");
    expect(bad).toContain('class="button button-neutral"');

    const badText = signIn({ providers: [{ ...github, style: { brandColor: "#000", text: "white;}" } }] }).html;
    expect(styleText(badText)).toContain(".provider-0{--provider-bg:#000;--provider-text:#ffffff}");
  });

  it.each([
    "javascript:alert(1)",
    "//evil.example/x.png",
    "/\\evil.example/x.png",
    "http://evil.example/x.png",
    "data:text/html,<script>alert(1)</script>",
    "java\tscript:alert(1)",
    " /logo.png",
    "logo.png",
    "https://evil.example/ x.png",
  ])("omits logo %j", (logo) => {
    for (const html of [
      signIn({ theme: { logo }, providers: [{ ...github, style: { logo } }] }).html,
      renderErrorPage({ theme: { logo }, signinUrl: `${BASE}/signin`, homeUrl: ORIGIN }).html,
      renderSignOutPage({ theme: { logo }, actionUrl: `${BASE}/signout`, csrfToken: "t" }).html,
      renderVerifyRequestPage({ theme: { logo }, host: "app.example.com", homeUrl: ORIGIN }).html,
    ]) {
      expectInert(html);
      expect(tagsNamed(html, "img")).toEqual([]);
    }
  });

  it.each(["/logo.svg", "data:image/png;base64,iVBORw0KGgo=", "https://cdn.example.net/logo.png"])(
    "renders logo %s with an alt attribute",
    (logo) => {
      const signin = signIn({ theme: { logo }, providers: [{ ...github, style: { logo } }] }).html;
      const imgs = tagsNamed(signin, "img");
      expect(imgs).toHaveLength(2);
      for (const img of imgs) {
        expect(img.attrs.src).toBe(logo);
        expect(img.attrs).toHaveProperty("alt");
      }
      const verify = renderVerifyRequestPage({ theme: { logo }, host: "app.example.com", homeUrl: ORIGIN }).html;
      expect(tagsNamed(verify, "img").map((img) => img.attrs.src)).toEqual([logo]);
    },
  );

  it.each([
    [undefined, "theme-auto"],
    ["auto", "theme-auto"],
    ["light", "theme-light"],
    ["dark", "theme-dark"],
    ["purple", "theme-auto"],
  ] as const)("colorScheme %s gives class %s on <html>", (colorScheme, className) => {
    const theme = { colorScheme } as Theme;
    for (const html of [signIn({ theme }).html, renderSignOutPage({ theme, actionUrl: "/auth/signout", csrfToken: "t" }).html]) {
      expect(tagsNamed(html, "html")[0].attrs.class).toBe(className);
    }
  });

  it("resolveTheme validates every value", () => {
    expect(resolveTheme(undefined)).toEqual({ colorScheme: "auto", brandColor: DEFAULT_BRAND_COLOR, buttonText: "#ffffff" });
    expect(resolveTheme({ colorScheme: "dark", brandColor: "#111", buttonText: "#eee", logo: "/l.png" })).toEqual({
      colorScheme: "dark",
      brandColor: "#111",
      buttonText: "#eee",
      logo: "/l.png",
    });
  });

  it("validators accept only what they document", () => {
    expect(toSafeCssColor(" #abc ")).toBe("#abc");
    expect(toSafeCssColor(42)).toBeUndefined();
    expect(toSafeCssColor(`rgb(${"1 ".repeat(100)})`)).toBeUndefined();
    expect(toSafeImageUrl("data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>")).toBeDefined();
    expect(toSafeImageUrl("https:evil.example")).toBeUndefined();
    expect(toSafeImageUrl("/a\u0000b")).toBeUndefined();
    expect(toSafeNavigationUrl("http://localhost:3000/auth/signin")).toBe("http://localhost:3000/auth/signin");
    expect(toSafeNavigationUrl("/auth/signin?x=1")).toBe("/auth/signin?x=1");
    expect(toSafeNavigationUrl("auth/signin")).toBeUndefined();
    expect(toSafeNavigationUrl("ftp://example.com/")).toBeUndefined();
  });
});

// --- other pages -----------------------------------------------------------------------------------------

describe("sign-out page", () => {
  it("asks for confirmation and posts to the action URL with the CSRF token", () => {
    const { status, html } = renderSignOutPage({
      actionUrl: `${BASE}/signout`,
      csrfToken: "csrf-1",
      callbackUrl: `${ORIGIN}/bye`,
      theme: {},
    });
    expect(status).toBe(200);
    expectInert(html);
    expect(html).toContain("<title>Sign Out</title>");
    expect(html).toContain("Are you sure you want to sign out?");
    const [form] = forms(html);
    expect(tagsNamed(form, "form")[0].attrs).toEqual({ action: `${BASE}/signout`, method: "post" });
    expect(hiddenValues(form, "csrfToken")).toEqual(["csrf-1"]);
    expect(hiddenValues(form, "callbackUrl")).toEqual([`${ORIGIN}/bye`]);
    expect(form).toMatch(/<button type="submit" class="button">Sign out<\/button>/);
  });

  it("sends no callbackUrl when none is given", () => {
    const { html } = renderSignOutPage({ actionUrl: `${BASE}/signout`, csrfToken: "csrf-1", theme: {} });
    expect(hiddenValues(html, "callbackUrl")).toEqual([]);
  });
});

describe("error page", () => {
  const render = (error?: string) => renderErrorPage({ error, signinUrl: `${BASE}/signin`, homeUrl: `${ORIGIN}/`, theme: {} });

  it.each([
    [
      "Configuration",
      500,
      "Server error",
      ["There is a problem with the server configuration.", "Check the server logs for more information."],
    ],
    ["AccessDenied", 403, "Access denied", ["You do not have permission to sign in."]],
    [
      "Verification",
      403,
      "Unable to sign in",
      ["The sign in link is no longer valid.", "It may have been used already or it may have expired."],
    ],
    [undefined, 200, "Error", ["Something went wrong while signing you in. Please try again."]],
    ["Unknown", 200, "Error", ["Something went wrong while signing you in. Please try again."]],
    ["constructor", 200, "Error", ["Something went wrong while signing you in. Please try again."]],
    ["__proto__", 200, "Error", ["Something went wrong while signing you in. Please try again."]],
    ["configuration", 200, "Error", ["Something went wrong while signing you in. Please try again."]],
  ] as const)("error=%s: status %i, heading %s", (error, status, heading, paragraphs) => {
    const result = render(error);
    expect(result.status).toBe(status);
    expectInert(result.html);
    expect(result.html).toContain(`<title>${heading}</title>`);
    expect(result.html).toContain(`<h1>${heading}</h1>`);
    for (const paragraph of paragraphs) expect(result.html).toContain(`<p>${paragraph}</p>`);
    if (error && !["Configuration", "AccessDenied", "Verification"].includes(error)) {
      expect(result.html).not.toContain(`>${error}<`);
      expect(result.html).not.toContain(`"${error}"`);
    }
  });

  it("links to sign in (except for a server error) and home", () => {
    const hrefs = (error?: string) => tagsNamed(render(error).html, "a").map((a) => a.attrs.href);
    expect(hrefs("AccessDenied")).toEqual([`${BASE}/signin`, `${ORIGIN}/`]);
    expect(hrefs("Verification")).toEqual([`${BASE}/signin`, `${ORIGIN}/`]);
    expect(hrefs(undefined)).toEqual([`${BASE}/signin`, `${ORIGIN}/`]);
    expect(hrefs("Configuration")).toEqual([`${ORIGIN}/`]);
  });
});

describe("verify-request page", () => {
  it("says to check the email and shows the host", () => {
    const { status, html } = renderVerifyRequestPage({ host: "app.example.com", homeUrl: `${ORIGIN}/`, theme: {} });
    expect(status).toBe(200);
    expectInert(html);
    expect(html).toContain("<title>Check your email</title>");
    expect(html).toContain("<h1>Check your email</h1>");
    expect(html).toContain("A sign in link has been sent to your email address.");
    expect(html).toContain('<span class="host">app.example.com</span>');
    expect(tagsNamed(html, "a").map((a) => a.attrs.href)).toEqual([`${ORIGIN}/`]);
  });
});

// --- self-contained --------------------------------------------------------------------------------------

describe("self-contained pages", () => {
  const LOGO = "https://cdn.example.net/logo.png";
  const theme: Theme = { colorScheme: "auto", brandColor: "#123456", logo: LOGO };
  const pages: Array<[string, string]> = [
    ["sign-in", signIn({ theme, error: "OAuthCallbackError" }).html],
    ["sign-out", renderSignOutPage({ actionUrl: `${BASE}/signout`, csrfToken: "t", callbackUrl: `${ORIGIN}/`, theme }).html],
    ...(["Configuration", "AccessDenied", "Verification", undefined] as const).map(
      (error) =>
        [`error ${error}`, renderErrorPage({ error, signinUrl: `${BASE}/signin`, homeUrl: `${ORIGIN}/`, theme }).html] as [string, string],
    ),
    ["verify-request", renderVerifyRequestPage({ host: "app.example.com", homeUrl: `${ORIGIN}/`, theme }).html],
  ];

  it.each(pages)("%s references no other host than the app's and the configured logo", (_name, html) => {
    expectInert(html);
    expectLabelledInputs(html);
    for (const [url] of html.matchAll(/https?:\/\/[^\s"'<>)]*/g)) {
      expect(url === LOGO || url.startsWith(`${ORIGIN}/`), url).toBe(true);
    }
    expect(styleText(html)).not.toMatch(/url\(|@import|@font-face/);
  });

  it("renders the stylesheet verbatim (no character the renderer would escape)", () => {
    expect(PAGE_CSS).not.toMatch(/["'<&]/);
    expect(styleText(signIn().html).startsWith(PAGE_CSS)).toBe(true);
  });

  it("has visible focus styles and both colour schemes", () => {
    expect(PAGE_CSS).toContain(":focus-visible{outline:");
    expect(PAGE_CSS).toContain("@media (prefers-color-scheme:dark){html.theme-auto{");
    expect(PAGE_CSS).toContain("html.theme-dark{");
  });

  // WCAG 2 relative luminance and contrast ratio.
  function contrast(a: string, b: string): number {
    const luminance = (hex: string) => {
      const [r, g, bl] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
    };
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  }

  function palette(selector: string): Record<string, string> {
    const start = PAGE_CSS.indexOf(`${selector}{--`);
    const block = PAGE_CSS.slice(start + selector.length + 1, PAGE_CSS.indexOf("}", start));
    return Object.fromEntries(block.split(";").map((declaration) => declaration.split(":") as [string, string]));
  }

  it.each([":root", "html.theme-dark"])("%s palette has AA contrast for text", (selector) => {
    const p = palette(selector);
    for (const background of [p["--card-bg"], p["--page-bg"], p["--neutral-bg"]]) {
      expect(contrast(p["--text"], background)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(p["--muted"], p["--card-bg"])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p["--danger-text"], p["--danger-bg"])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p["--input-border"], p["--input-bg"])).toBeGreaterThanOrEqual(3);
    expect(contrast(p["--focus"], p["--card-bg"])).toBeGreaterThanOrEqual(3);
    expect(contrast("#ffffff", DEFAULT_BRAND_COLOR)).toBeGreaterThanOrEqual(4.5);
  });
});
