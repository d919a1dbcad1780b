/**
 * Shared helpers of the OAuth tests: an `OAuthContext` for a provider, and the cookie plumbing between
 * the start of a sign-in and its callback.
 */
import { type Cookie, defaultCookies } from "../../src/http/cookies.js";
import type { OAuthContext } from "../../src/oauth/index.js";
import type { OAuthConfig } from "../../src/providers/types.js";
import type { LoggerInstance } from "../../src/types/config.js";

export const SECRET = "a-test-secret-that-is-long-enough-0123456789";
export const APP_ORIGIN = "http://localhost:3000";

/** A logger that records every call, to assert that nothing secret is logged. */
export function recordingLogger(): LoggerInstance & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (error) => lines.push(`error ${error.name} ${error.message} ${JSON.stringify(error.cause ?? null)}`),
    warn: (code) => lines.push(`warn ${code}`),
    debug: (message, metadata) => lines.push(`debug ${message} ${JSON.stringify(metadata ?? null)}`),
  };
}

/** The context the engine would build for `provider` on this app. */
export function contextFor(provider: OAuthConfig, overrides: Partial<OAuthContext> = {}): OAuthContext {
  return {
    provider,
    redirectUri: `${overrides.requestOrigin ?? APP_ORIGIN}/auth/callback/${provider.id}`,
    secret: SECRET,
    cookies: defaultCookies(false),
    requestCookies: {},
    logger: recordingLogger(),
    requestOrigin: APP_ORIGIN,
    // The engine hashes the browser's CSRF token and subject (http/flow-binding.ts); start and callback
    // of one test run in the same "browser".
    flowBinding: "test-browser-binding",
    ...overrides,
  };
}

/** The request cookies a browser would send after receiving `cookies`. */
export function cookieRecord(cookies: Cookie[]): Record<string, string> {
  return Object.fromEntries(cookies.filter((c) => c.options.maxAge !== 0).map((c) => [c.name, c.value]));
}

/** An OAuth 2 provider with explicit endpoints on a scripted server at `origin` (client "client" / "secret"). */
export function endpointsProvider(origin: string, id: string, overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id,
    name: id,
    type: "oauth",
    authorization: `${origin}/authorize`,
    token: `${origin}/token`,
    userinfo: `${origin}/userinfo`,
    clientId: "client",
    clientSecret: "secret",
    ...overrides,
  };
}
