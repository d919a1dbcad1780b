import { describe, expect, it } from "vitest";
import * as errors from "../../src/errors.js";
import { AuthError, CredentialsSignin, type ErrorType, isClientSafeError, SignInError } from "../../src/errors.js";

const errorTypes: ErrorType[] = [
  "AccessDenied",
  "AdapterError",
  "CallbackRouteError",
  "ErrorPageLoop",
  "EventError",
  "InvalidCallbackUrl",
  "CredentialsSignin",
  "InvalidEndpoints",
  "InvalidCheck",
  "JWTSessionError",
  "MissingAdapter",
  "MissingAdapterMethods",
  "MissingAuthorize",
  "MissingSecret",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthProfileParseError",
  "SessionTokenError",
  "OAuthSignInError",
  "EmailSignInError",
  "SignOutError",
  "UnknownAction",
  "UnsupportedStrategy",
  "InvalidProvider",
  "UntrustedHost",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "DuplicateConditionalUI",
  "MissingWebAuthnAutocomplete",
  "WebAuthnVerificationError",
  "ExperimentalFeatureNotEnabled",
  "RateLimited",
  "InvalidOriginConfig",
  "UntrustedRedirectTarget",
  // Issue 19: provider responses and session data.
  "ProviderResponseTooLarge",
  "InvalidIdTokenClaim",
  "UnsupportedTokenType",
  "SessionDataTooLarge",
  "SessionDataTooDeep",
  // Issue 17: start-up and newcomer failures.
  "WeakSecret",
  "UnknownCredentialsUser",
];
const signInKind = new Set([
  "RateLimited",
  "ProviderResponseTooLarge",
  "InvalidIdTokenClaim",
  "UnsupportedTokenType",
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthSignInError",
  "EmailSignInError",
  "MissingCSRF",
  "AccountNotLinked",
]);

describe("error classes", () => {
  it("has the 32 error types of the reference library plus RateLimited, the origin work's two, issue 19's five and issue 17's two", () =>
    expect(new Set(errorTypes).size).toBe(42));

  it.each(errorTypes)("%s: instanceof AuthError, its own type and name, cause.err kept", (type) => {
    const ErrorClass = (errors as unknown as Record<string, typeof AuthError>)[type];
    expect(ErrorClass).toBeTypeOf("function");
    const inner = new Error("inner failure");
    const error = new ErrorClass("something failed", { cause: { err: inner, providerId: "p" } });
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toBeInstanceOf(Error);
    expect(error.type).toBe(type);
    expect(error.name).toBe(type);
    expect(error.message).toBe("something failed");
    expect(error.cause?.err).toBe(inner);
    expect(error.cause?.providerId).toBe("p");
    expect(error.stack).toContain(type);
    expect(error.kind).toBe(signInKind.has(type) ? "signIn" : "error");
    expect(error instanceof SignInError).toBe(signInKind.has(type));
  });

  it("accepts every constructor form", () => {
    const inner = new Error("db down", { cause: { table: "users" } });
    const fromError = new errors.AdapterError(inner);
    expect(fromError.message).toBe("db down");
    expect(fromError.cause).toMatchObject({ err: inner, table: "users" });
    expect(new AuthError({ cause: inner }).cause?.err).toBe(inner);
    expect(new AuthError().message).toBe("");
    expect(new AuthError("plain").cause).toBeUndefined();
    expect(new AuthError("m", { cause: "text" }).cause).toEqual({ value: "text" });
  });

  it("messages do not point at another project's website", () => {
    expect(new errors.MissingSecret("Please define a secret").message).not.toMatch(/https?:/);
  });

  it("CredentialsSignin: code defaults to 'credentials', subclasses set their own", () => {
    expect(new CredentialsSignin().code).toBe("credentials");
    expect(CredentialsSignin.kind).toBe("signIn");
    expect(CredentialsSignin.type).toBe("CredentialsSignin");
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login";
    }
    const custom = new InvalidLogin();
    expect(custom).toBeInstanceOf(CredentialsSignin);
    expect(custom.code).toBe("invalid_login");
    expect(custom.type).toBe("CredentialsSignin");
    expect(custom.name).toBe("InvalidLogin");
  });

  it("keeps the Error statics", () => {
    expect(typeof AuthError.captureStackTrace).toBe("function");
    expect(typeof AuthError.stackTraceLimit).toBe("number");
    const target: { stack?: string } = {};
    AuthError.captureStackTrace(target);
    expect(target.stack).toBeTypeOf("string");
  });

  it("only client-safe types are shown to users", () => {
    expect(isClientSafeError(new errors.AccessDenied())).toBe(true);
    expect(isClientSafeError(new errors.Verification())).toBe(true);
    expect(isClientSafeError(new errors.MissingSecret())).toBe(false);
    // Provider misbehaviour is shown like OAuthCallbackError; bad session data is the client's own request.
    expect(isClientSafeError(new errors.ProviderResponseTooLarge())).toBe(true);
    expect(isClientSafeError(new errors.SessionDataTooDeep())).toBe(false);
    expect(isClientSafeError(new errors.AdapterError())).toBe(false);
    // The operator's mistakes: the user sees the configuration error page, the log has the fix.
    expect(isClientSafeError(new errors.WeakSecret())).toBe(false);
    expect(isClientSafeError(new errors.UnknownCredentialsUser())).toBe(false);
    expect(isClientSafeError(new Error("x"))).toBe(false);
  });
});
