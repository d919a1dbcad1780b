/**
 * The untranslated-string guard: every built-in page in each of its states, and every mail, rendered with
 * a pseudo-locale catalog (each text wrapped in ⟦…⟧ with accented letters). Any visible text or
 * attribute text (title, aria-label, placeholder, alt, button values) left outside ⟦…⟧ is a string that
 * does not come from the catalog, apart from the user's and the app's data (address, host, names).
 */
import { describe, expect, it } from "vitest";
import { type RenderedMail, verificationMail } from "../../src/email/template.js";
import { addressTakenMail, confirmNewAddressMail } from "../../src/features/account/mail.js";
import { renderTwoFactorHtml } from "../../src/features/two-factor/page-view.js";
import { createTranslator, englishOf } from "../../src/i18n/translator.js";
import { everyBuiltInFeature } from "../../src/kernel/features.js";

// Every built-in feature, the on-demand ones (organizations, the authorization server) loaded.
const builtInFeatures = await everyBuiltInFeature();

import {
  type PageProvider,
  renderAccountPage,
  renderConfirmEmailPage,
  renderEmailConfirmPage,
  renderErrorPage,
  renderPasswordPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../../src/pages/index.js";
import type { MailSite } from "../../src/sign-in/account-mail.js";
import { addressChangedMail, type SignInChange, signInChangeMail } from "../../src/sign-in/notify-owner.js";
import { accountExistsMail, noAccountMail, passwordChangedMail, resetMail, signUpMail } from "../../src/sign-in/password-mail.js";
import type { Messages } from "../../src/types/i18n.js";

const ACCENTS: Readonly<Record<string, string>> = {
  a: "á",
  e: "é",
  i: "î",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  s: "š",
  y: "ý",
  z: "ž",
  A: "Á",
  E: "É",
  I: "Î",
  O: "Ö",
  U: "Ü",
  C: "Ç",
  N: "Ñ",
  S: "Š",
  Y: "Ý",
  Z: "Ž",
};

/** ⟦accented text⟧, the `{placeholders}` kept as they are. */
function pseudo(text: string): string {
  const parts = text.split(/(\{[A-Za-z][A-Za-z0-9]*\})/);
  return `⟦${parts.map((part) => (part.startsWith("{") ? part : part.replace(/[A-Za-z]/g, (l) => ACCENTS[l] ?? l))).join("")}⟧`;
}

// English as an instance has it: the shipped catalog and the texts the built-in features carry.
const ENGLISH_MESSAGES = await englishOf(builtInFeatures.flatMap((feature) => (feature.messages ? [feature.messages] : [])));
const PSEUDO = Object.fromEntries(Object.entries(ENGLISH_MESSAGES).map(([key, text]) => [key, pseudo(text)])) as unknown as Messages;
const text = createTranslator("en-XA", [PSEUDO], ENGLISH_MESSAGES);
// The sign-in page's messages for the built-in features' error types, as an instance gives them.
const errorMessages = Object.assign({}, ...builtInFeatures.map((feature) => feature.signInErrors ?? {}));

// The data of the user and the app that a page or mail shows as it is.
const HOST = "app.example.com";
const EMAIL = "ada@example.com";
const DATA = [
  HOST,
  EMAIL,
  "Ada Lovelace",
  "GitHub",
  "Acme ID",
  "Magic Mail",
  "Passkey",
  "Account PIN",
  "Username",
  "Secret",
  "bad-otp",
  "InvalidLogin",
  "4711",
];

const ORIGIN = `https://${HOST}`;
const AUTH = `${ORIGIN}/auth`;
const theme = {};

function decode(value: string): string {
  return value.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
}

/** What is left of `value` once every ⟦…⟧ and the known data are taken out: only spaces, digits and punctuation may stay. */
function untranslated(value: string): string | undefined {
  // Innermost first: a text may hold another (a placeholder filled with a translated text).
  let rest = value;
  for (let before = ""; before !== rest; ) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, " ");
  }
  rest = rest.replace(/https?:\/\/\S+/g, " ");
  for (const data of DATA) rest = rest.replaceAll(data, " ");
  return /^[\s\p{P}\p{S}\d]*$/u.test(rest) ? undefined : rest.trim();
}

/** The visible text of a document and the attribute texts a person or a screen reader meets. */
function leftovers(html: string): string[] {
  const found: string[] = [];
  const withoutCode = html.replace(/<style>[\s\S]*?<\/style>/g, "").replace(/<script[\s\S]*?<\/script>/g, "");
  // Tags out: the texts a placeholder filled with an element (`<code>`, the host's span) stay within one ⟦…⟧.
  const visible = decode(withoutCode.replace(/<[^>]*>/g, ""));
  const missing = untranslated(visible);
  if (missing) found.push(`text: ${missing}`);
  for (const tag of withoutCode.matchAll(/<([a-z]+)\b([^>]*)>/g)) {
    const attrs = tag[2] ?? "";
    for (const attr of attrs.matchAll(/\s(title|aria-label|placeholder|alt|value|data-msg-[a-z]+)="([^"]*)"/g)) {
      const [name, raw] = [attr[1], attr[2] ?? ""];
      // A value is text only on buttons (hidden and typed-in fields carry data).
      if (name === "value" && !(tag[1] === "button" || /type="(submit|button|reset)"/.test(attrs))) continue;
      const missingAttr = untranslated(decode(raw));
      if (missingAttr) found.push(`${tag[1]} ${name}: ${missingAttr}`);
    }
  }
  return found;
}

function expectTranslated(html: string): void {
  expect(leftovers(html)).toEqual([]);
  expect(html).toMatch(/^<!DOCTYPE html><html lang="en-XA" dir="ltr"/);
}

const providers: PageProvider[] = [
  {
    id: "github",
    name: "GitHub",
    type: "oauth",
    signinUrl: `${AUTH}/signin/github`,
    callbackUrl: `${AUTH}/callback/github`,
    style: { brandColor: "#24292f" },
  },
  { id: "acme", name: "Acme ID", type: "oidc", signinUrl: `${AUTH}/signin/acme`, callbackUrl: `${AUTH}/callback/acme` },
  { id: "email", name: "Magic Mail", type: "email", signinUrl: `${AUTH}/signin/email`, callbackUrl: `${AUTH}/callback/email` },
  {
    id: "password",
    name: "Account PIN",
    type: "credentials",
    signinUrl: `${AUTH}/signin/password`,
    callbackUrl: `${AUTH}/callback/password`,
    // The app's own labels (its data), and the built-in ones of Password() and Passkey(), which are translated.
    credentials: {
      username: { label: "Username", type: "text" },
      secret: { label: "Secret", type: "password" },
      email: { label: "Email", type: "email" },
      password: { label: "Password", type: "password" },
    },
    passwordAccounts: {},
  },
  {
    id: "passkey",
    name: "Passkey",
    type: "webauthn",
    signinUrl: `${AUTH}/signin/passkey`,
    callbackUrl: `${AUTH}/callback/passkey`,
    formFields: { name: { label: "Display name", type: "text" } },
  },
];

const SIGNIN_ERRORS = [
  undefined,
  "OAuthSignin",
  "OAuthCallbackError",
  "OAuthAccountNotLinked",
  "EmailSignInError",
  "CredentialsSignin",
  "SessionRequired",
  "MissingCSRF",
  "AccessDenied",
  "Verification",
  "RateLimited",
  "TwoFactorExpired",
  "SomethingUnknown",
];

describe("every page state is translated", () => {
  it.each(SIGNIN_ERRORS)("sign-in page, error %s", (error) => {
    expectTranslated(renderSignInPage({ providers, csrfToken: "t", callbackUrl: ORIGIN, error, errorMessages, theme, text }).html);
  });

  it.each([
    ["EmailSignInError", "invalid-address"],
    ["OAuthCallbackError", "access_denied"],
    ["CredentialsSignin", "bad-otp"],
  ])("sign-in page, error %s with code %s", (error, code) => {
    expectTranslated(renderSignInPage({ providers, csrfToken: "t", callbackUrl: ORIGIN, error, code, theme, text }).html);
  });

  it("the passkey script's messages are in the page's language (data-msg-*)", () => {
    const html = renderSignInPage({ providers, csrfToken: "t", callbackUrl: ORIGIN, theme, text }).html;
    expect(html.match(/data-msg-[a-z]+="⟦/g)).toHaveLength(8);
    expect(html).toContain(`data-msg-long="${pseudo("A display name has at most {max} characters.").replace("{max}", "64")}"`);
  });

  it("sign-in page with no providers", () => {
    expectTranslated(renderSignInPage({ providers: [], csrfToken: "t", callbackUrl: ORIGIN, theme, text }).html);
  });

  it("sign-out confirmation", () => {
    expectTranslated(renderSignOutPage({ actionUrl: `${AUTH}/signout`, csrfToken: "t", theme, text }).html);
  });

  it.each([undefined, "Configuration", "AccessDenied", "Verification", "LinkAlreadyUsed", "Unknown"])("error page, %s", (error) => {
    expectTranslated(renderErrorPage({ error, signinUrl: `${AUTH}/signin`, homeUrl: ORIGIN, theme, text }).html);
  });

  it("error page with the development cause", () => {
    expectTranslated(
      renderErrorPage({ error: "Configuration", cause: "InvalidLogin", signinUrl: `${AUTH}/signin`, homeUrl: ORIGIN, theme, text }).html,
    );
  });

  it.each([undefined, "email", "password-sign-up", "password-reset", "password-verified", "password-exists", "email-reverted"])(
    "verify-request page, type %s",
    (type) => {
      const forgotUrl = `${AUTH}/password/forgot`;
      expectTranslated(renderVerifyRequestPage({ host: HOST, homeUrl: ORIGIN, type, forgotUrl, theme, text }).html);
    },
  );

  it.each([undefined, "IncorrectCode", "RateLimited", "MissingCSRF", "Other"])("verify-request code form, error %s", (error) => {
    const codeForm = { actionUrl: `${AUTH}/callback/email`, length: 6, csrfToken: "t", error };
    expectTranslated(renderVerifyRequestPage({ host: HOST, homeUrl: ORIGIN, theme, codeForm, text }).html);
  });

  it("email sign-in confirmation page", () => {
    const params = {
      actionUrl: `${AUTH}/callback/email`,
      csrfToken: "t",
      callbackUrl: ORIGIN,
      email: EMAIL,
      token: "k",
      host: HOST,
      theme,
      text,
    };
    expectTranslated(renderEmailConfirmPage(params).html);
  });

  const passwordStates: Array<[string, string | undefined, string | undefined]> = [
    ["sign-up", undefined, undefined],
    ["sign-up", "InvalidPassword", "too-short"],
    ["sign-up", "InvalidPassword", "too-long"],
    ["sign-up", "InvalidPassword", undefined],
    ["sign-up", "InvalidName", undefined],
    ["forgot", undefined, undefined],
    ["forgot", "EmailSignInError", undefined],
    ["forgot", "RateLimited", undefined],
    ["reset", undefined, undefined],
    ["reset", "Verification", undefined],
    ["verify", undefined, undefined],
    ["verify", "MissingCSRF", undefined],
    ["verify", "Other", undefined],
  ];
  it.each(passwordStates)("password page %s, error %s, code %s", (form, error, code) => {
    const html = renderPasswordPage({
      form: form as "sign-up",
      actionUrl: `${AUTH}/password/${form}`,
      csrfToken: "t",
      callbackUrl: ORIGIN,
      token: "k",
      error,
      code,
      minLength: 8,
      maxLength: 128,
      signInUrl: `${AUTH}/signin`,
      signUpUrl: `${AUTH}/password/sign-up`,
      forgotUrl: `${AUTH}/password/forgot`,
      theme,
      text,
    }).html;
    expectTranslated(html);
  });

  const account = {
    csrfToken: "t",
    accounts: [
      { provider: "github", providerName: "GitHub", providerAccountId: "1", unlinkable: true },
      { provider: "password", providerName: "Account PIN", providerAccountId: "2", unlinkable: false },
    ],
    linkable: [{ id: "acme", name: "Acme ID", signinUrl: `${AUTH}/signin/acme` }],
    unlinkUrl: `${AUTH}/account/unlink`,
    emailUrl: `${AUTH}/account/email`,
    deleteUrl: `${AUTH}/account/delete`,
    accountUrl: `${AUTH}/account`,
    signOutUrl: `${AUTH}/signout`,
    theme,
    text,
  };
  const password = { minLength: 8, changeUrl: `${AUTH}/password/change`, forgotUrl: `${AUTH}/password/forgot` };
  const passkeysOf = (count: number) => ({
    list: Array.from({ length: count }, (_, i) => ({
      id: `c${i}`,
      name: `Passkey 2026-11-0${i + 1}`,
      createdAt: "2026-11-01T10:00:00.000Z",
      lastUsedAt: i === 0 ? "2026-11-20T08:00:00.000Z" : null,
    })),
    renameUrl: `${AUTH}/account/passkey-rename`,
    removeUrl: `${AUTH}/account/passkey-remove`,
    optionsUrl: `${AUTH}/webauthn-options/passkey`,
    callbackUrl: `${AUTH}/callback/passkey`,
    csrfUrl: `${AUTH}/csrf`,
    addedUrl: `${AUTH}/account?done=passkey-added`,
    reauthUrl: `${AUTH}/signin?error=RecentSignInRequired`,
  });
  const accountStates = [
    {
      name: "full, password set, 2 passkeys",
      email: EMAIL,
      name_: "Ada Lovelace",
      password: { ...password, set: true },
      passkeys: passkeysOf(2),
    },
    { name: "no password, 1 passkey, no email", email: null, name_: null, password: { ...password, set: false }, passkeys: passkeysOf(1) },
    { name: "no accounts", email: EMAIL, name_: null, accounts: [], passkeys: passkeysOf(0) },
    ...["password-changed", "unlinked", "email-sent", "email-changed", "passkey-added", "passkey-renamed", "passkey-removed"].map(
      (done) => ({
        name: `done ${done}`,
        email: EMAIL,
        name_: null,
        done,
      }),
    ),
    ...[
      "LastSignInMethod",
      "AccountNotFound",
      "PasskeyNotFound",
      "InvalidName",
      "IncorrectPassword",
      "InvalidPassword",
      "PasswordNotSet",
      "MissingCSRF",
      "RateLimited",
      "EmailSignInError",
      "RecentSignInRequired",
      "Verification",
      "Other",
    ].map((error) => ({ name: `error ${error}`, email: EMAIL, name_: null, error })),
  ];
  it.each(accountStates)("account page: $name", ({ name_, name: _, ...state }) => {
    expectTranslated(renderAccountPage({ ...account, ...state, name: name_ }).html);
  });

  it("account page without a delete form", () => {
    expectTranslated(renderAccountPage({ ...account, email: EMAIL, name: null, deleteUrl: undefined }).html);
  });

  it("email-change confirmation page", () => {
    expectTranslated(renderConfirmEmailPage({ actionUrl: `${AUTH}/account/confirm-email`, csrfToken: "t", token: "k", theme, text }).html);
  });

  it("email-change revert page", () => {
    const params = { actionUrl: `${AUTH}/account/revert-email`, csrfToken: "t", token: "k", theme, text, purpose: "revert" as const };
    expectTranslated(renderConfirmEmailPage(params).html);
  });

  it.each([undefined, "IncorrectCode", "RateLimited", "MissingCSRF", "WebAuthnVerificationError", "InvalidCheck", "Other"])(
    "second-step page, error %s",
    (error) => {
      const params = {
        authUrl: AUTH,
        csrfToken: "t",
        theme,
        totp: true,
        passkeyProviderId: "passkey",
        error,
        signInUrl: `${AUTH}/signin`,
        text,
      };
      expectTranslated(renderTwoFactorHtml(params));
    },
  );
});

describe("every mail is translated", () => {
  const site: MailSite = { host: HOST, theme, text };
  const mails: Array<[string, RenderedMail]> = [
    ["sign-in link", verificationMail({ url: `${AUTH}/callback/email?token=k`, host: HOST, theme, text })],
    ["sign-in link and code", verificationMail({ url: `${AUTH}/callback/email?token=k`, host: HOST, theme, code: "4711", text })],
    ["new address", confirmNewAddressMail(site, `${AUTH}/account/confirm-email?token=k`)],
    ["address taken", addressTakenMail(site)],
    ["address changed", addressChangedMail(site, `${AUTH}/account/revert-email?token=k`)],
    ["sign-up", signUpMail(site, `${AUTH}/password/verify?token=k`)],
    ["account exists", accountExistsMail(site, `${AUTH}/signin`)],
    ["reset", resetMail(site, `${AUTH}/password/reset?token=k`, 30)],
    ["no account", noAccountMail(site, `${AUTH}/password/sign-up`)],
    ["password changed", passwordChangedMail(site, `${AUTH}/password/forgot`)],
    ...(
      [
        "passkeyAdded",
        "passkeyRemoved",
        "passwordSet",
        "twoFactorEnabled",
        "twoFactorDisabled",
        "recoveryCodeUsed",
        "recoveryCodesCreated",
        "accountLinked",
        "accountUnlinked",
        "otherSessionsEnded",
      ] as const satisfies ReadonlyArray<Exclude<SignInChange, "passwordChanged">>
    ).map((change): [string, RenderedMail] => [`notice: ${change}`, signInChangeMail(site, change, `${AUTH}/account`)]),
  ];
  it.each(mails)("%s: subject, text and HTML", (_, mail) => {
    expect(untranslated(mail.subject)).toBeUndefined();
    expect(untranslated(mail.text)).toBeUndefined();
    expect(leftovers(mail.html)).toEqual([]);
    expect(mail.html).toMatch(/^<!doctype html><html lang="en-XA" dir="ltr">/);
  });
});

describe("the guard itself", () => {
  it("finds an English text, an English attribute and a half-translated text", () => {
    expect(leftovers("<p>⟦Ĥéļļö⟧</p><p>Sign in</p>")).toEqual(["text: Sign in"]);
    expect(leftovers('<form aria-label="Sign in with GitHub"></form>')).toEqual(["form aria-label: Sign in with"]);
    expect(leftovers('<button type="submit" value="Go">⟦Ĝö⟧</button>')).toEqual(["button value: Go"]);
    expect(leftovers('<input type="hidden" value="csrf token">')).toEqual([]);
  });

  it("finds the English of a page rendered without the pseudo catalog", () => {
    expect(leftovers(renderSignOutPage({ actionUrl: `${AUTH}/signout`, csrfToken: "t", theme }).html).length).toBeGreaterThan(0);
  });
});
