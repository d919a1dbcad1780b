/**
 * The Password() provider's parts, each on its own and fast (no database, no mail server): the rules, the
 * sealed links, the start-up check, the account row, the mails, the factory. The flows over HTTP are in
 * password-flows.test.ts; this file is what the mutation group `password` runs.
 */
import { describe, expect, it } from "vitest";
import { EmailSignInError, InvalidName, InvalidPassword, MissingAdapterMethods, Verification } from "../../src/errors.js";
import { encode } from "../../src/jwt.js";
import { isPasswordProvider } from "../../src/provider-kind.js";
import Credentials from "../../src/providers/credentials.js";
import Password from "../../src/providers/password.js";
import { accountMailer, mailSite, sendAccountMail } from "../../src/sign-in/account-mail.js";
import { assertSameBrowser, openLink, passwordFingerprint, sealLink, spendLink } from "../../src/sign-in/link-tokens.js";
import { hashOf, passwordAccountOf, passwordStore, storePasswordHash } from "../../src/sign-in/password-account.js";
import { passwordConfigError, passwordMailProvider, passwordMethods } from "../../src/sign-in/password-config.js";
import { accountExistsMail, noAccountMail, passwordChangedMail, resetMail, signUpMail } from "../../src/sign-in/password-mail.js";
import { MAX_NAME_LENGTH, MAX_PASSWORD_LENGTH, newPassword, normalisedPassword, signUpName } from "../../src/sign-in/password-rules.js";
import type { AdapterAccount } from "../../src/types/adapters.js";
import type { InternalOptions, RequestInternal } from "../../src/types/internal.js";
import type { EmailConfig } from "../../src/types/providers.js";
import { memoryAdapter } from "../helpers/memory-adapter.js";

const rules = { minLength: 8, maxLength: 12 };

function ruleOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidPassword);
    return (error as InvalidPassword).rule;
  }
  return undefined;
}

describe("password rules", () => {
  it("counts characters (code points after NFKC), inclusive at both ends", () => {
    expect(newPassword("12345678", rules)).toBe("12345678");
    expect(newPassword("123456789012", rules)).toBe("123456789012");
    expect(ruleOf(() => newPassword("1234567", rules))).toBe("too-short");
    expect(ruleOf(() => newPassword("1234567890123", rules))).toBe("too-long");
    // Eight emoji are eight characters (sixteen UTF-16 units).
    expect(newPassword("😀".repeat(8), rules)).toBe("😀".repeat(8));
    expect(ruleOf(() => newPassword("😀".repeat(13), rules))).toBe("too-long");
    // Full-width digits are digits; "ﬀ" is "ff" (one more character after NFKC).
    expect(newPassword("１２３４５６７８", rules)).toBe("12345678");
    expect(ruleOf(() => newPassword("ﬀﬀﬀﬀﬀﬀﬀ", { minLength: 15, maxLength: 20 }))).toBe("too-short");
    expect(newPassword("ﬀﬀﬀﬀﬀﬀﬀ", { minLength: 14, maxLength: 20 })).toBe("ff".repeat(7));
  });

  it("missing, empty or not text is the `missing` rule, with its message", () => {
    for (const input of [undefined, null, "", 12345678, ["12345678"], { length: 9 }]) {
      expect(ruleOf(() => newPassword(input, rules))).toBe("missing");
    }
    expect(() => newPassword("", rules)).toThrow("Choose a password.");
    expect(() => newPassword("1", rules)).toThrow("Use at least 8 characters for your password.");
    expect(() => newPassword("1".repeat(13), rules)).toThrow("Use at most 12 characters for your password.");
  });

  it("normalises a given password the same way, and anything but text is none", () => {
    expect(normalisedPassword("ｐａｓｓ")).toBe("pass");
    expect(normalisedPassword("e\u0301")).toBe("é");
    expect(normalisedPassword(["a"])).toBeUndefined();
    expect(normalisedPassword(undefined)).toBeUndefined();
    expect(MAX_PASSWORD_LENGTH).toBe(1024);
  });

  it("a name is optional, trimmed, one line, at most 64 characters", () => {
    expect(signUpName(undefined)).toBeNull();
    expect(signUpName(null)).toBeNull();
    expect(signUpName("   ")).toBeNull();
    expect(signUpName("  Ada Lovelace ")).toBe("Ada Lovelace");
    expect(signUpName("e\u0301")).toBe("é");
    expect(signUpName("n".repeat(MAX_NAME_LENGTH))).toHaveLength(64);
    for (const bad of ["n".repeat(65), "two\nlines", "tab\there", "para\u2029graph", "line\u2028sep"]) {
      expect(() => signUpName(bad)).toThrow(InvalidName);
    }
    expect(() => signUpName(["Ada"])).toThrow("Your name must be text.");
    expect(() => signUpName("n".repeat(65))).toThrow("Use at most 64 characters for your name.");
    expect(() => signUpName("a\nb")).toThrow("Your name must be one line of text.");
  });
});

/** The options the link functions read. */
function linkOptions(secret: string | string[] = "unit-test-secret-0123456789abcdef-0123"): InternalOptions {
  return { secret: Array.isArray(secret) ? secret : [secret] } as unknown as InternalOptions;
}

const signUpClaims = { email: "a@example.com", name: null, hash: "scrypt$h", binding: "b1", callbackUrl: "https://app.test/" };

async function verificationOf(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Verification);
  return (error as Error).message;
}

describe("sealed links", () => {
  it("open to their claims, id and expiry; only under their own kind and secret", async () => {
    const options = linkOptions();
    const token = await sealLink(options, "sign-up", signUpClaims, 600);
    const opened = await openLink(options, "sign-up", token);
    expect(opened).toMatchObject(signUpClaims);
    expect(opened.id).toMatch(/\S/);
    expect(opened.expiresAt).toBeGreaterThan(Date.now() + 590_000);
    expect(opened.expiresAt).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(await verificationOf(openLink(options, "reset", token))).toBe("The link is not valid or has expired. Ask for a new one.");
    await verificationOf(openLink(options, "email-change", token));
    await verificationOf(openLink(linkOptions("another-secret-0123456789abcdef-0123"), "sign-up", token));
    // A rotated secret still opens links sealed with the previous one.
    expect(
      await openLink(linkOptions(["new-secret-0123456789abcdef-012345", "unit-test-secret-0123456789abcdef-0123"]), "sign-up", token),
    ).toMatchObject(signUpClaims);
  });

  it("refuse what is not a token, and tokens that lack a claim", async () => {
    const options = linkOptions();
    for (const token of [undefined, "", 42, ["x"], "x".repeat(8193), "not.a.token"])
      await verificationOf(openLink(options, "sign-up", token));
    const secret = options.secret;
    const salt = "authlib.password-sign-up";
    for (const token of [
      { email: "a@example.com" },
      { binding: "b" },
      { email: 1, binding: "b" },
      { email: "a@example.com", binding: 2 },
    ]) {
      await verificationOf(openLink(options, "sign-up", await encode({ token, secret, salt })));
    }
    await verificationOf(openLink(options, "sign-up", await encode({ token: signUpClaims, secret, salt, maxAge: -3600 })));
    expect(await openLink(options, "sign-up", await encode({ token: signUpClaims, secret, salt }))).toMatchObject({
      email: "a@example.com",
    });
  });

  it("a link is for the browser that asked for it", () => {
    expect(() => assertSameBrowser({ binding: "b1" }, "b1")).not.toThrow();
    expect(() => assertSameBrowser({ binding: "b1" }, "b2")).toThrow("Open the link in the browser where you asked for it");
    expect(() => assertSameBrowser({ binding: "" }, "")).toThrow(Verification);
  });

  it("is spent once: the second claim of the same link is refused, another link is not", async () => {
    const options = linkOptions();
    const claims: Array<{ identifier: string; token: string; expires: Date }> = [];
    const store = {
      createVerificationToken: (token: { identifier: string; token: string; expires: Date }) => {
        if (claims.some((c) => c.identifier === token.identifier && c.token === token.token)) return null;
        claims.push(token);
        return token;
      },
    };
    const first = await openLink(
      options,
      "reset",
      await sealLink(options, "reset", { ...signUpClaims, userId: "u", fingerprint: "f" }, 600),
    );
    await spendLink(options, store, first);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({ identifier: "a@example.com", expires: new Date(first.expiresAt) });
    expect(claims[0]?.token).not.toContain(first.id);
    expect(await verificationOf(spendLink(options, store, first))).toBe("The link was used already. Ask for a new one if you need it.");
    const second = await openLink(
      options,
      "reset",
      await sealLink(options, "reset", { ...signUpClaims, userId: "u", fingerprint: "f" }, 600),
    );
    await spendLink(options, store, second);
    expect(claims).toHaveLength(2);
    await verificationOf(spendLink(options, {}, second));
  });

  it("the password fingerprint changes with the hash and the secret, and names no hash", async () => {
    const options = linkOptions();
    const none = await passwordFingerprint(options, undefined);
    const one = await passwordFingerprint(options, "scrypt$1");
    expect(none).not.toBe(one);
    expect(await passwordFingerprint(options, "scrypt$1")).toBe(one);
    expect(await passwordFingerprint(options, "scrypt$2")).not.toBe(one);
    expect(await passwordFingerprint(linkOptions("another-secret-0123456789abcdef-0123"), "scrypt$1")).not.toBe(one);
    expect(one).not.toContain("scrypt");
  });
});

const smtp = (id: string, sendMail?: EmailConfig["sendMail"]): EmailConfig => ({
  id,
  name: id,
  type: "email",
  sendVerificationRequest: () => {},
  ...(sendMail ? { sendMail } : {}),
});

describe("start-up check and the mail transport", () => {
  it("needs an adapter with the password methods, and a way to send mail", () => {
    const provider = Password();
    const { adapter } = memoryAdapter();
    const complete = { ...adapter, createVerificationToken: () => null };
    const send = () => {};
    expect(passwordConfigError(provider, { providers: [], adapter: undefined })).toMatchObject({ type: "MissingAdapter" });
    const missing = passwordConfigError(provider, { providers: [], adapter });
    expect(missing).toMatchObject({ type: "MissingAdapterMethods" });
    expect(missing?.message).toContain("createVerificationToken");
    expect(passwordConfigError(provider, { providers: [smtp("mail")], adapter: complete })).toMatchObject({ type: "InvalidProvider" });
    expect(passwordConfigError(provider, { providers: [smtp("mail", send)], adapter: complete })).toBeUndefined();
    expect(passwordConfigError(Password({ sendMail: send }), { providers: [], adapter: complete })).toBeUndefined();
    expect(passwordConfigError(Password({ mailer: "other" }), { providers: [smtp("mail", send)], adapter: complete })).toMatchObject({
      type: "InvalidProvider",
    });
    expect(provider.checkConfig?.({ providers: [smtp("mail", send)], adapter: complete })).toBeUndefined();
    for (const method of [
      "createUser",
      "getUser",
      "getUserByEmail",
      "updateUser",
      "linkAccount",
      "listAccountsByUserId",
      "updateAccount",
    ]) {
      expect(passwordMethods).toContain(method);
    }
  });

  it("picks the named email provider, else the first that can send", () => {
    const send = () => {};
    const a = smtp("a");
    const b = smtp("b", send);
    const c = smtp("c", send);
    expect(passwordMailProvider(Password(), [a, b, c])).toBe(b);
    expect(passwordMailProvider(Password({ mailer: "c" }), [a, b, c])).toBe(c);
    expect(passwordMailProvider(Password({ mailer: "a" }), [a, b, c])).toBeUndefined();
    expect(passwordMailProvider(undefined, [a, c])).toBe(c);
  });

  it("account mails go through the provider's own sendMail, else its email provider's", async () => {
    const sent: string[] = [];
    const own = Password({ sendMail: (mail) => void sent.push(`own ${mail.to}`) });
    const transport = smtp("mail", (mail, provider) => void sent.push(`${provider.id} ${mail.to}`));
    const mail = { to: "x@example.com", subject: "s", text: "t", html: "h" };
    await accountMailer([transport, own])?.(mail);
    await accountMailer([transport, Password()])?.(mail);
    await accountMailer([transport])?.(mail);
    expect(sent).toEqual(["own x@example.com", "mail x@example.com", "mail x@example.com"]);
    expect(accountMailer([smtp("none")])).toBeUndefined();
  });
});

describe("the password account row", () => {
  it("is found by user and provider, updated in place, and linked when new", async () => {
    const { adapter, accounts } = memoryAdapter();
    const store = adapter as Parameters<typeof storePasswordHash>[0];
    const provider = Password();
    expect(await passwordAccountOf(store, provider, "u1")).toBeNull();
    await storePasswordHash(store, provider, "u1", "scrypt$1");
    expect(accounts).toEqual([
      { provider: "password", providerAccountId: "u1", userId: "u1", type: "credentials", access_token: "scrypt$1" },
    ]);
    await storePasswordHash(store, provider, "u1", "scrypt$2");
    expect(accounts).toHaveLength(1);
    expect(hashOf(await passwordAccountOf(store, provider, "u1"))).toBe("scrypt$2");
    // A renumbered copy (providerAccountId no longer the user's id) is still the user's password account.
    accounts.push({ provider: "password", providerAccountId: "old-id", userId: "u2", type: "credentials", access_token: "scrypt$3" });
    expect(hashOf(await passwordAccountOf(store, provider, "u2"))).toBe("scrypt$3");
    await storePasswordHash(store, provider, "u2", "scrypt$4");
    expect(accounts.find((a) => a.userId === "u2")).toMatchObject({ providerAccountId: "old-id", access_token: "scrypt$4" });
    // Another provider's row, or one without a hash, is no password.
    accounts.push({ provider: "github", providerAccountId: "gh", userId: "u3", type: "oauth", access_token: "gho_x" } as AdapterAccount);
    accounts.push({ provider: "password", providerAccountId: "u4", userId: "u4", type: "credentials" });
    expect(await passwordAccountOf(store, provider, "u3")).toBeNull();
    expect(await passwordAccountOf(store, provider, "u4")).toBeNull();
    expect(hashOf(null)).toBeUndefined();
  });
});

describe("the mails", () => {
  const site = { host: "app.test", theme: {} };
  it("say what happened, name the host, and carry the link only where there is one", () => {
    const link = "https://app.test/auth/password/verify?token=abc";
    const cases = [
      [signUpMail(site, link), "Confirm your email address for app.test", link],
      [accountExistsMail(site, "https://app.test/auth/signin"), "You already have an account on app.test", "https://app.test/auth/signin"],
      [resetMail(site, link, 60), "Reset your password for app.test", link],
      [
        noAccountMail(site, "https://app.test/auth/password/sign-up"),
        "Password reset for app.test",
        "https://app.test/auth/password/sign-up",
      ],
      [
        passwordChangedMail(site, "https://app.test/auth/password/forgot"),
        "Your password for app.test changed",
        "https://app.test/auth/password/forgot",
      ],
    ] as const;
    for (const [mail, subject, url] of cases) {
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(url.replace(/&/g, "&amp;"));
      expect(mail.text).toContain("app.test");
    }
    expect(resetMail(site, link, 60).text).toContain("for 60 minutes, in the browser where you asked for it");
    expect(signUpMail(site, link).text).not.toContain("password:");
  });
});

describe("the Password() factory", () => {
  it("is a credentials provider with its defaults, told apart from Credentials()", () => {
    const provider = Password();
    expect(provider).toMatchObject({ id: "password", name: "Password", type: "credentials" });
    expect(provider.passwordAccounts).toEqual({ minLength: 8, maxLength: 128, verificationMaxAge: 86_400, resetMaxAge: 3600 });
    expect(Object.keys(provider.credentials)).toEqual(["email", "password"]);
    expect(provider.credentials.password).toMatchObject({ type: "password", autocomplete: "current-password" });
    expect(() => provider.authorize({}, new Request("https://app.test/"))).toThrow("checked by authlib's callback route");
    expect(isPasswordProvider(provider)).toBe(true);
    expect(isPasswordProvider(Credentials({ authorize: () => null }))).toBe(false);
    expect(isPasswordProvider(undefined)).toBe(false);
    expect(Password({ id: "pw", name: "Pass" })).toMatchObject({ id: "pw", name: "Pass" });
  });

  it("refuses length rules that are not whole numbers in range", () => {
    expect(Password({ minLength: 1, maxLength: 1 }).passwordAccounts).toMatchObject({ minLength: 1, maxLength: 1 });
    expect(Password({ maxLength: 1024 }).passwordAccounts.maxLength).toBe(1024);
    expect(() => Password({ maxLength: 1025 })).toThrow("`maxLength` must be a whole number from 8 to 1024.");
    expect(() => Password({ minLength: 0 })).toThrow("`minLength` must be a whole number from 1 to 1024.");
    expect(() => Password({ minLength: 8.5 })).toThrow(/minLength/);
    expect(() => Password({ minLength: 10, maxLength: 9 })).toThrow(/maxLength/);
    expect(() => Password({ resetMaxAge: 59 })).toThrow(/resetMaxAge/);
    expect(() => Password({ verificationMaxAge: 7 * 86_400 + 1 })).toThrow(/verificationMaxAge/);
    expect(Password({ resetMaxAge: 60, verificationMaxAge: 7 * 86_400 }).passwordAccounts).toMatchObject({
      resetMaxAge: 60,
      verificationMaxAge: 604_800,
    });
  });
});

describe("the mails, word for word", () => {
  const site = { host: "app.test", theme: {} };
  const link = "https://app.test/l";
  it("say exactly this (text part)", () => {
    expect(signUpMail(site, link).text).toBe(
      "Confirm your email address for app.test\nhttps://app.test/l\n\nSomeone (hopefully you) created an account with this address. If it was not you, ignore this email: no account is made.\n",
    );
    expect(accountExistsMail(site, link).text).toBe(
      'You already have an account on app.test\nhttps://app.test/l\n\nSomeone tried to create an account with this address. If it was you, sign in instead; if you forgot your password, choose "Forgot your password?" there.\n\nIf it was not you, ignore this email: nothing changed.\n',
    );
    expect(resetMail(site, link, 45).text).toBe(
      "Reset your password for app.test\nhttps://app.test/l\n\nThe link works once, for 45 minutes, in the browser where you asked for it.\n\nIf you did not ask to reset your password, ignore this email: your password stays as it is.\n",
    );
    expect(noAccountMail(site, link).text).toBe(
      "Password reset for app.test\nhttps://app.test/l\n\nSomeone asked to reset the password of an account with this address, but there is none. If it was not you, ignore this email.\n",
    );
    expect(passwordChangedMail(site, link).text).toBe(
      "Your password changed on app.test\nhttps://app.test/l\n\nYour password was just changed, and every other device was signed out. If this was you, there is nothing to do.\n",
    );
  });

  it("label their buttons, in HTML with the host in bold", () => {
    const labels: Array<[{ html: string }, string]> = [
      [signUpMail(site, link), "Confirm email address"],
      [accountExistsMail(site, link), "Sign in"],
      [resetMail(site, link, 60), "Choose a new password"],
      [noAccountMail(site, link), "Create an account"],
      [passwordChangedMail(site, link), "It was not me: reset it"],
    ];
    for (const [mail, label] of labels) {
      expect(mail.html).toContain(`>${label}</a>`);
      expect(mail.html).toContain("<strong>app.test</strong>");
    }
  });
});

describe("the account mail transport", () => {
  const mail = { subject: "s", text: "t", html: "h" };
  it("sends to the address through the configured transport", async () => {
    const sent: unknown[] = [];
    const options = { providers: [Password({ sendMail: (m) => void sent.push(m) })] } as unknown as InternalOptions;
    await sendAccountMail(options, "to@example.com", mail);
    expect(sent).toEqual([{ to: "to@example.com", ...mail }]);
  });

  it("a failed or impossible send is EmailSignInError, with the cause's name and code kept (not its text)", async () => {
    const refusal = Object.assign(new Error("550 5.1.1 <to@example.com> unknown"), { code: "EENVELOPE", responseCode: 550 });
    const failing = { providers: [Password({ sendMail: () => Promise.reject(refusal) })] } as unknown as InternalOptions;
    const error = await sendAccountMail(failing, "to@example.com", mail).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmailSignInError);
    expect((error as EmailSignInError).message).toBe("The email could not be sent. Try again later.");
    const cause = (error as EmailSignInError).cause?.err as Error & { code?: string; responseCode?: number };
    expect([cause.name, cause.message, cause.code, cause.responseCode]).toEqual(["Error", "", "EENVELOPE", 550]);
    const none = await sendAccountMail({ providers: [] } as unknown as InternalOptions, "to@example.com", mail).catch((e: unknown) => e);
    expect((none as EmailSignInError).cause?.err?.message).toContain("No email provider with sendMail is configured");
  });

  it("names the site by the app's host, with its theme, in the request's language", async () => {
    const theme = { brandColor: "#123456" };
    const options = { origin: "https://app.test:8443", theme, config: {} } as unknown as InternalOptions;
    const request = { request: new Request("https://app.test:8443/auth/password/forgot", { headers: { "accept-language": "fr" } }) };
    const site = await mailSite(options, request as RequestInternal);
    expect({ host: site.host, theme: site.theme, locale: site.text?.locale }).toEqual({ host: "app.test:8443", theme, locale: "fr" });
  });
});

describe("the password store guard", () => {
  it("names what the adapter lacks", () => {
    const { adapter } = memoryAdapter();
    expect(() => passwordStore({ adapter: undefined } as unknown as InternalOptions)).toThrow(MissingAdapterMethods);
    expect(() => passwordStore({ adapter } as unknown as InternalOptions)).toThrow(
      "The Password provider needs these adapter methods: createVerificationToken.",
    );
    const complete = { ...adapter, createVerificationToken: () => null };
    expect(passwordStore({ adapter: complete } as unknown as InternalOptions)).toBe(complete);
  });
});

describe("the start-up check's words", () => {
  it("says what to do", () => {
    const { adapter } = memoryAdapter();
    expect(passwordConfigError(Password(), { providers: [], adapter: undefined })?.message).toBe(
      "The Password provider keeps its accounts in the database: set `adapter` in the config.",
    );
    const { getUser: _, ...withoutGetUser } = adapter;
    expect(passwordConfigError(Password(), { providers: [], adapter: withoutGetUser })?.message).toBe(
      "The Password provider needs these adapter methods, which are missing: getUser, createVerificationToken.",
    );
    const complete = { ...adapter, createVerificationToken: () => null };
    expect(Password({ id: "pw" }).checkConfig?.({ providers: [], adapter: complete })?.message).toBe(
      'The Password provider "pw" sends verification and reset mails: add an email provider (Nodemailer, Resend, …) or give it `sendMail`.',
    );
  });

  it("keeps the fields it was given, and no others", () => {
    const send = () => {};
    expect(Object.keys(Password().passwordAccounts).sort()).toEqual(["maxLength", "minLength", "resetMaxAge", "verificationMaxAge"]);
    expect(Password({ mailer: "mail" }).passwordAccounts.mailer).toBe("mail");
    expect(Password({ sendMail: send }).passwordAccounts.sendMail).toBe(send);
    expect(Password().credentials).toEqual({
      email: { label: "Email", type: "email", autocomplete: "username", required: true },
      password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
    });
  });
});
