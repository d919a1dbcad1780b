/**
 * Log levels by meaning (src/http/log-level.ts, docs/observability.md "Log levels"): a user's expected
 * failure is `debug`, a client's signal the operator should see is `warn`, only a server-side fault is
 * `error`. The unit tests hold the table; the end-to-end test walks an instance (Password() and TOTP on
 * the hosted-db adapter over PGlite, a real SMTP server) through every page signed out and each failure a
 * user can cause, with a logger that records every level, and finds no `error` line; an adapter whose
 * database is down (PostgreSQL on a port where nothing listens) does log one.
 */
import { readFileSync } from "node:fs";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as errors from "../../src/errors.js";
import { LOG_LEVELS, type LogLevel, logFailure, logLevelOf, WARNING_CODES } from "../../src/http/log-level.js";
import { decode, encode } from "../../src/jwt.js";

import { everyBuiltInFeature } from "../../src/kernel/features.js";
import type { LoggerInstance } from "../../src/types/config.js";
import { warningText } from "../../src/warning-texts.js";
import { closeSharedPglite } from "../helpers/database.js";
import { startSmtpServer } from "../helpers/smtp.js";
import { linkIn, mailTo, post, signIn, signUpAndVerify } from "../password/helpers.js";
import { PASSWORD, requestOf, secondStep, twoFactorApp, userWithTotp, wrongCodeFor } from "../two-factor/helpers.js";

/** The table, written out here: changing a level in the source without changing it here fails. */
const expected: Record<LogLevel, string[]> = {
  debug: [
    "AccessDenied",
    "AccountNotFound",
    "AccountNotLinked",
    "ApiKeyNotFound",
    "ApiKeyScopeExceeded",
    "CredentialsSignin",
    "DomainClaimed",
    "DomainNotProven",
    "ImpersonationForbidden",
    "IncorrectCode",
    "IncorrectPassword",
    "InvalidAccount",
    "InvalidApiKey",
    "InvalidApiKeyRequest",
    "InvalidIdpMetadata",
    "InvalidName",
    "InvalidOrganization",
    "InvalidPassword",
    "InvalidSessionId",
    "InvalidSsoConnection",
    "InvalidUser",
    "InvitationInvalid",
    "LastOwner",
    "LastSignInMethod",
    "LinkAlreadyUsed",
    "MethodNotAllowed",
    "OAuthAccountNotLinked",
    "OAuthError",
    "OrganizationForbidden",
    "OrganizationLimit",
    "OrganizationNotFound",
    "OrganizationPolicy",
    "PasskeyNotFound",
    "PasswordNotSet",
    "RecentSignInRequired",
    "RouteNotFound",
    "SamlResponseRejected",
    "ScimConflict",
    "ScimForbidden",
    "ScimInvalidRequest",
    "ScimPreconditionFailed",
    "ScimResourceNotFound",
    "ScimTokenNotFound",
    "ScimUnauthorized",
    "SessionNotFound",
    "SessionRequired",
    "SlugTaken",
    "SsoConnectionNotFound",
    "SsoRequired",
    "SsoSignInFailed",
    "TwoFactorAlreadyEnabled",
    "TwoFactorExpired",
    "TwoFactorNotEnabled",
    "UnknownAction",
    "UserBanned",
    "UserExists",
    "UserNotFound",
    "Verification",
    "WebAuthnVerificationError",
  ],
  warn: ["InvalidCheck", "JWTSessionError", "MissingCSRF", "RateLimited", "UntrustedHost", "UntrustedRedirectTarget"],
  error: [
    "AccountsUnavailable",
    "AdapterError",
    "CallbackRouteError",
    "DuplicateConditionalUI",
    "EmailSignInError",
    "ErrorPageLoop",
    "EventError",
    "ExperimentalFeatureNotEnabled",
    "InvalidCallbackUrl",
    "InvalidEndpoints",
    "InvalidIdTokenClaim",
    "InvalidOriginConfig",
    "InvalidProvider",
    "InvalidSessionConfig",
    "InvalidSsoConfig",
    "MissingAdapter",
    "MissingAdapterMethods",
    "MissingAuthorize",
    "MissingSecret",
    "MissingWebAuthnAutocomplete",
    "OAuthCallbackError",
    "OAuthProfileParseError",
    "OAuthSignInError",
    "ProviderResponseTooLarge",
    "SamlLibraryMissing",
    "SessionDataTooDeep",
    "SessionDataTooLarge",
    "SessionRegistryMissing",
    "SessionTokenError",
    "SignOutError",
    "UnknownCredentialsUser",
    "UnsupportedStrategy",
    "UnsupportedTokenType",
    "WeakSecret",
  ],
};

/** Every built-in error class, by its type. */
const classes = Object.values(errors).filter(
  (value): value is typeof errors.AuthError => typeof value === "function" && value.prototype instanceof errors.AuthError,
);

/** A logger that records every level as `level Type` (debug lines by their first word). */
function recordingLogger(lines: string[]): LoggerInstance {
  return {
    error: (error) => void lines.push(`error ${error.name}: ${error.message}`),
    warn: (code) => void lines.push(`warn ${code}`),
    debug: (message) => void lines.push(`debug ${message}`),
  };
}

/**
 * The error types the built-in features log at debug (`FeatureDefinition.quietErrors`), as an instance has
 * them once every feature loaded (the on-demand ones join the list when their option first loads them).
 */
const quiet: ReadonlySet<string> = new Set((await everyBuiltInFeature()).flatMap((feature) => feature.quietErrors ?? []));

describe("the table of log levels", () => {
  it("places every error type at the level of its meaning (the built-in features' own: debug where they say so)", () => {
    const table: Record<LogLevel, string[]> = { debug: [], warn: [], error: [] };
    for (const [type, level] of Object.entries(LOG_LEVELS)) table[level].push(type);
    table.debug.push(...[...quiet].filter((type) => !table.debug.includes(type)));
    for (const level of ["debug", "warn", "error"] as const) expect(table[level].sort(), level).toEqual(expected[level]);
  });

  it("covers every built-in error class, and each class is logged at its type's level", () => {
    for (const ErrorClass of classes) {
      if (ErrorClass.type === "AuthError" || ErrorClass.type === "SignInError") continue;
      expect([...Object.keys(LOG_LEVELS), ...quiet], ErrorClass.name).toContain(ErrorClass.type);
      const level = quiet.has(ErrorClass.type) ? "debug" : LOG_LEVELS[ErrorClass.type as keyof typeof LOG_LEVELS];
      expect(logLevelOf(new ErrorClass("x"), quiet), ErrorClass.name).toBe(level);
    }
  });

  it("an error authlib does not know, or an app's own AuthError subclass, is an error", () => {
    class AppFailure extends errors.AuthError {}
    expect(logLevelOf(new TypeError("boom"))).toBe("error");
    expect(logLevelOf(new AppFailure("boom"))).toBe("error");
    expect(logLevelOf(new errors.AuthError("boom"))).toBe("error");
  });

  it("a mistyped address is the user's (debug), a sign-in mail not sent is the server's (error)", () => {
    const mistyped = new errors.EmailSignInError("invalid");
    mistyped.code = "invalid-address";
    expect(logLevelOf(mistyped)).toBe("debug");
    expect(logLevelOf(new errors.EmailSignInError("not sent"))).toBe("error");
  });

  it("a client's callbackUrl off this origin is a warning; the app's redirect callback failing is an error", () => {
    const foreign = new errors.InvalidCallbackUrl("off origin");
    foreign.code = "foreign-origin";
    expect(logLevelOf(foreign)).toBe("warn");
    expect(logLevelOf(new errors.InvalidCallbackUrl("the callback threw"))).toBe("error");
    const lines: string[] = [];
    logFailure(recordingLogger(lines), foreign);
    expect(lines[0]).toBe("warn callback-url-refused");
  });

  it("a session cookie past its expiry is the user's (debug); one that does not decrypt is a warning", async () => {
    const secret = "log-levels-secret-0123456789abcdef0123";
    const salt = "authlib.session-token";
    const ended = await encode({ token: { sub: "ada" }, secret, salt, maxAge: -120 });
    const expired = await decode({ token: ended, secret, salt }).catch((error: Error) => error);
    expect(expired).toBeInstanceOf(errors.JWTSessionError);
    expect(logLevelOf(expired as Error)).toBe("debug");
    const current = await encode({ token: { sub: "ada" }, secret, salt, maxAge: 60 });
    const tampered = await decode({ token: `${current.slice(0, -2)}AA`, secret: `${secret}-other`, salt }).catch((error: Error) => error);
    expect(tampered).toBeInstanceOf(errors.JWTSessionError);
    expect(logLevelOf(tampered as Error)).toBe("warn");
  });

  it("logFailure calls the level's method: debug with the line, warn with the code (and the line at debug), error with the error", () => {
    const lines: string[] = [];
    const logger = recordingLogger(lines);
    logFailure(logger, new errors.CredentialsSignin());
    logFailure(logger, new errors.MissingCSRF("CSRF token missing."));
    logFailure(logger, new errors.AdapterError("The database did not answer."));
    expect(lines).toEqual([
      "debug CredentialsSignin: the credentials were rejected (code credentials)",
      "warn csrf-refused",
      "debug MissingCSRF: CSRF token missing.",
      "error AdapterError: The database did not answer.",
    ]);
  });

  it("every warn type has a warning code with a text of its own", () => {
    expect(Object.keys(WARNING_CODES).sort()).toEqual(expected.warn);
    for (const code of Object.values(WARNING_CODES)) expect(warningText(code), code).toMatch(/^\S.{20,}\.$/);
  });

  it("docs/observability.md shows the same table", () => {
    const docs = readFileSync(new URL("../../../../docs/observability.md", import.meta.url), "utf8");
    const section = docs.slice(docs.indexOf("## Log levels"));
    for (const level of ["debug", "warn", "error"] as const) {
      const row = new RegExp(`^\\| \`${level}\` \\|(.*)\\|(.*)\\|$`, "m").exec(section);
      expect(row, level).not.toBeNull();
      const named = [...(row?.[2] ?? "").matchAll(/`(\w+)`/g)].map((m) => m[1]).sort();
      expect(named, level).toEqual(expected[level]);
    }
  });
});

describe("an instance walked through every page signed out and every user failure", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
    await closeSharedPglite();
  });

  it("logs no error line; each failure is a debug line", async () => {
    const lines: string[] = [];
    const app = await twoFactorApp(smtp, { config: { debug: true, logger: recordingLogger(lines) } });
    const { auth } = app;
    const visitor = app.browser();

    // Every page signed out, and what a signed-out page's loaders ask for.
    for (const path of [
      "/auth/signin",
      "/auth/signout",
      "/auth/error?error=Verification",
      "/auth/verify-request",
      "/auth/two-factor",
      "/auth/account",
      "/auth/session",
      "/auth/providers",
      "/auth/csrf",
      "/auth/sessions",
      "/auth/accounts",
      "/auth/passkeys",
      "/auth/password/sign-up",
      "/auth/password/forgot",
      "/auth/password/reset",
      "/auth/password/verify",
      // A crafted link sending the user elsewhere after sign-in: the client's doing, a warning.
      "/auth/signin?callbackUrl=https%3A%2F%2Fevil.example%2F",
    ]) {
      expect((await visitor.send(path)).status, path).toBeLessThan(500);
    }
    const signedOut = requestOf(visitor);
    await expect(auth.api.getTwoFactorStatus(signedOut)).rejects.toMatchObject({ type: "SessionRequired" });
    await expect(auth.api.listSessions(signedOut)).rejects.toMatchObject({ type: "SessionRequired" });

    // A wrong password.
    const { secret } = await userWithTotp(smtp, app, "ada@example.com");
    const wrong = app.browser();
    expect((await signIn(wrong, "ada@example.com", "not the password")).headers.get("location")).toContain("error=CredentialsSignin");

    // A wrong TOTP code at the second step.
    const second = app.browser();
    await signIn(second, "ada@example.com", PASSWORD);
    await secondStep(second, wrongCodeFor(secret));

    // A sign-up link opened twice (the second time: used).
    const bob = app.browser();
    const since = smtp.mails.length;
    await post(bob, "/auth/password/sign-up", { email: "bob@example.com", password: PASSWORD, name: "Bob", callbackUrl: "/" });
    const token = linkIn(mailTo(smtp, "bob@example.com", since), "/auth/password/verify").searchParams.get("token") as string;
    await post(bob, "/auth/password/verify", { token });
    await post(app.browser(), "/auth/password/verify", { token });
    // A link whose token is unreadable (expired or cut).
    await post(app.browser(), "/auth/password/verify", { token: `${token.slice(0, -4)}AAAA` });
    // Signing up again with the password of someone else's address (a user's mistake too).
    await signUpAndVerify(smtp, app.browser(), "carol@example.com", PASSWORD).catch(() => {});

    expect(lines.filter((line) => line.startsWith("error "))).toEqual([]);
    const debugTypes = new Set(lines.filter((line) => line.startsWith("debug ")).map((line) => line.split(/[ :]/)[1]));
    for (const type of ["SessionRequired", "CredentialsSignin", "IncorrectCode"]) expect(debugTypes, type).toContain(type);
    expect([...debugTypes].some((type) => type === "Verification" || type === "LinkAlreadyUsed")).toBe(true);
  });

  it("an adapter whose database is down is an error line", async () => {
    const lines: string[] = [];
    // A real PostgreSQL client on a port where nothing listens: the adapter's calls fail as when the database is down.
    const client = new HostedDbClient({ databaseURL: "postgres://postgres@127.0.0.1:9/none", branch: "down" });
    const app = await twoFactorApp(smtp, { config: { adapter: HostedDbAdapter(client), logger: recordingLogger(lines) } });
    const browser = app.browser();
    await signIn(browser, "ada@example.com", PASSWORD);
    await client.close();
    expect(lines.filter((line) => line.startsWith("error ")).length).toBeGreaterThan(0);
  });
});
