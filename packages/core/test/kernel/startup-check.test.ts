/**
 * Start-up checks a newcomer meets first (issue 17): a short secret in production and an OAuth/OIDC
 * provider without a client id are reported by name when the configuration is resolved, before anyone
 * clicks a button, and the error page reveals nothing.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  accountTokenMethods,
  emailMethods,
  sessionMethods,
  sessionRecordMethods,
  userMethods,
  webAuthnMethods,
} from "../../src/adapter/capabilities.js";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { InvalidSessionConfig, MissingAdapterMethods } from "../../src/errors.js";
import { MIN_SECRET_BYTES, secretByteLength } from "../../src/kernel/assert.js";
import { Auth } from "../../src/kernel/auth.js";
import { createAuth } from "../../src/kernel/instance.js";
import Credentials from "../../src/providers/credentials.js";
import GitHub from "../../src/providers/github.js";
import Passkey from "../../src/providers/passkey.js";
import type { OIDCConfig } from "../../src/providers/types.js";
import type { Adapter } from "../../src/types/adapters.js";
import type { AuthConfig } from "../../src/types/config.js";
import { memoryAdapter, withVerificationTokens } from "../helpers/memory-adapter.js";

const ORIGIN = "http://localhost:3000";
const strongSecret = "startup-check-secret-0123456789abcdef"; // 37 bytes
const corp: OIDCConfig = { id: "corp-sso", name: "Corp", type: "oidc", issuer: "https://sso.corp.example", clientSecret: "s" };

/** A configuration whose logged errors are collected as `Name: message`. */
function configWith(overrides: Partial<AuthConfig>) {
  const errors: string[] = [];
  const config: AuthConfig = {
    secret: strongSecret,
    trustHost: true,
    providers: [],
    logger: { error: (error) => void errors.push(`${error.name}: ${error.message}`), warn: () => {} },
    ...overrides,
  };
  return { config, errors };
}

/** Resolves the configuration the way the first request does, and returns what the sign-in page answered. */
async function firstRequest(config: AuthConfig) {
  const response = await Auth(new Request(`${ORIGIN}/auth/signin`), config);
  return { status: response.status, body: await response.text() };
}

afterEach(() => vi.unstubAllEnvs());

describe("a weak secret in production", () => {
  it("counts bytes the way key derivation does (UTF-8)", () => {
    expect(MIN_SECRET_BYTES).toBe(32);
    expect(secretByteLength("abc")).toBe(3);
    expect(secretByteLength("é".repeat(16))).toBe(32);
  });

  it("is refused at start-up with WeakSecret, which names neither the secret nor reveals it on the page", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const { config, errors } = configWith({ secret: "short" });
    const page = await firstRequest(config);
    expect(page.status).toBe(500);
    expect(page.body).not.toContain("short");
    expect(errors).toEqual(["WeakSecret: The secret has 5 bytes; production needs 32: `npx authlib secret`."]);
  });

  it("applies to every secret of a rotation list, naming its position", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const { config, errors } = configWith({ secret: [strongSecret, "0123456789abcdef0123456789abcde"] });
    expect((await firstRequest(config)).status).toBe(500);
    expect(errors).toEqual([expect.stringMatching(/^WeakSecret: The secret #2 has 31 bytes; production needs 32/)]);
  });

  it("accepts 32 bytes in production, and a short secret outside production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const strong = configWith({ secret: "x".repeat(32) });
    expect((await firstRequest(strong.config)).status).toBe(200);
    expect(strong.errors).toEqual([]);

    vi.stubEnv("NODE_ENV", "development");
    const dev = configWith({ secret: "short" });
    expect((await firstRequest(dev.config)).status).toBe(200);
    expect(dev.errors).toEqual([]);
  });
});

describe("an OAuth/OIDC provider without a client id", () => {
  it("is reported at start-up as InvalidProvider, with the env variable to set", async () => {
    const { config, errors } = configWith({ providers: [corp] });
    const page = await firstRequest(config);
    expect(page.status).toBe(500);
    expect(errors).toEqual(['InvalidProvider: Provider "corp-sso" has no client id: set AUTH_CORP_SSO_ID or `clientId`.']);
  });

  it("a preset without options is reported the same way", async () => {
    const { config, errors } = configWith({ providers: [GitHub] });
    expect((await firstRequest(config)).status).toBe(500);
    expect(errors).toEqual([expect.stringMatching(/^InvalidProvider: Provider "github" has no client id: set AUTH_GITHUB_ID/)]);
  });

  it("is fine once setEnvDefaults has applied AUTH_<ID>_ID (env first, then the check)", async () => {
    const { config, errors } = configWith({ providers: [corp, GitHub] });
    setEnvDefaults({ AUTH_CORP_SSO_ID: "corp-client", AUTH_GITHUB_ID: "gh-client", AUTH_GITHUB_SECRET: "gh-secret" }, config);
    const page = await firstRequest(config);
    expect(errors).toEqual([]);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Sign in with Corp");
    expect(page.body).toContain("Sign in with GitHub");
  });
});

describe("an adapter without a method a feature needs", () => {
  /** An adapter with every method authlib knows, so that each case below lacks exactly one. */
  const complete = () => withVerificationTokens(memoryAdapter({ sessionRecords: true }).adapter);
  const credentials = Credentials({ authorize: () => null });
  const email = { id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => {} };
  const oidc = { ...corp, clientId: "corp-client" };

  /** Per feature: the name the error gives it, the configuration that enables it, the methods it needs. */
  const features: Array<[string, Partial<AuthConfig> & Pick<AuthConfig, "providers">, ReadonlyArray<keyof Adapter>]> = [
    ["Database sessions", { session: { strategy: "database" }, providers: [credentials] }, [...userMethods, ...sessionMethods]],
    ["OAuth sign-in with an adapter", { session: { strategy: "jwt" }, providers: [oidc] }, userMethods],
    ["Email sign-in", { session: { strategy: "jwt" }, providers: [email] }, emailMethods],
    ["WebAuthn", { session: { strategy: "jwt" }, providers: [Passkey({})], experimental: { enableWebAuthn: true } }, webAuthnMethods],
    [
      "Access-token refresh with database sessions",
      { session: { strategy: "database" }, providers: [{ ...oidc, refreshAccessToken: true }] },
      accountTokenMethods,
    ],
    [
      "Session records (session.maxPerUser)",
      { session: { strategy: "database", maxPerUser: 3 }, providers: [credentials] },
      sessionRecordMethods,
    ],
    [
      "Session records (session.revocation)",
      { session: { strategy: "jwt", revocation: "strict" }, providers: [credentials] },
      sessionRecordMethods,
    ],
  ];
  const cases = features.flatMap(([feature, config, methods]) => methods.map((method) => [feature, method, config] as const));

  it.each(features)("%s: starts with every method present", (_feature, config) => {
    expect(createAuth({ secret: strongSecret, trustHost: true, adapter: complete(), ...config }).basePath).toBe("/auth");
  });

  it.each(cases)("%s without %s: createAuth throws MissingAdapterMethods naming both", (feature, method, config) => {
    const { [method]: _removed, ...adapter } = complete();
    let thrown: unknown;
    try {
      createAuth({ secret: strongSecret, trustHost: true, adapter, ...config });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MissingAdapterMethods);
    expect((thrown as MissingAdapterMethods).type).toBe("MissingAdapterMethods");
    // One record method of five missing is reported as a partial set of them, before the option that asked for them.
    const named = feature.startsWith("Session records") ? "Session records" : feature;
    expect((thrown as Error).message).toMatch(new RegExp(`^${named} .*need.*: .*\\b${method}\\b`));
  });

  it("an adapter with no session record method names the option that asked for them", () => {
    const { createSessionRecord, getSessionRecord, listSessionRecords, touchSessionRecord, deleteSessionRecords, ...adapter } = complete();
    expect(() =>
      createAuth({
        secret: strongSecret,
        trustHost: true,
        adapter,
        providers: [credentials],
        session: { strategy: "database", maxPerUser: 3 },
      }),
    ).toThrow(
      new MissingAdapterMethods(
        "Session records (session.maxPerUser) need these adapter methods, which are missing: createSessionRecord, getSessionRecord, listSessionRecords, touchSessionRecord, deleteSessionRecords.",
      ),
    );
    expect(() =>
      createAuth({
        secret: strongSecret,
        trustHost: true,
        adapter,
        providers: [credentials],
        session: { strategy: "jwt", revocation: "strict" },
      }),
    ).toThrow(/^Session records \(session\.revocation\) need session\.store, or these adapter methods/);
  });

  it("JWT sessions with session control and neither a store nor an adapter: InvalidSessionConfig", () => {
    expect(() => createAuth({ secret: strongSecret, trustHost: true, providers: [credentials], session: { maxPerUser: 3 } })).toThrow(
      new InvalidSessionConfig(
        "Session records (session.maxPerUser) need a session registry: set session.store (memorySessionStore(), redisSessionStore({ client }), hostedDbSessionStore(client)) or use an adapter with the session record methods.",
      ),
    );
  });
});
