import { describe, expect, it, vi } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import { readEnv } from "../../src/env/read.js";
import { encode } from "../../src/jwt.js";
import { Auth } from "../../src/kernel/auth.js";
import type { ProviderConfig } from "../../src/providers/types.js";
import type { AuthConfig } from "../../src/types/config.js";

const oauth = (id: string, extra: Partial<ProviderConfig> = {}) => ({ id, name: id, type: "oidc", ...extra }) as ProviderConfig;

describe("setEnvDefaults", () => {
  it("fills the documented generic OIDC example (docs/examples/generic-oidc.ts) from AUTH_ACME_ID, _SECRET and _ISSUER", async () => {
    const { acme } = await import("../../../../docs/examples/generic-oidc.js");
    const config: AuthConfig = { providers: [{ ...acme }] };
    setEnvDefaults({ AUTH_ACME_ID: "id", AUTH_ACME_SECRET: "secret", AUTH_ACME_ISSUER: "https://sso.acme.example" }, config);
    expect(config.providers[0]).toMatchObject({ clientId: "id", clientSecret: "secret", issuer: "https://sso.acme.example" });
  });

  it("reads AUTH_SECRET and orders AUTH_SECRET_1..3 newest first", () => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTH_SECRET: "0", AUTH_SECRET_1: "1", AUTH_SECRET_3: "3" }, config);
    expect(config.secret).toEqual(["3", "1", "0"]);
  });

  it("keeps a secret from the config", () => {
    const config: AuthConfig = { providers: [], secret: "config" };
    setEnvDefaults({ AUTH_SECRET: "env" }, config);
    expect(config.secret).toBe("config");
  });

  it("accepts a getter as env source (Qwik's ev.env)", () => {
    const env = new Map([["AUTH_SECRET", "from-getter"]]);
    const config: AuthConfig = { providers: [] };
    setEnvDefaults({ get: (name: string) => env.get(name) }, config);
    expect(config.secret).toEqual(["from-getter"]);
  });

  it("takes basePath from AUTHLIB_URL, defaults to /auth, warns when both disagree", () => {
    const a: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTHLIB_URL: "https://example.com/api/auth/" }, a);
    expect(a.basePath).toBe("/api/auth");
    const b: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTHLIB_URL: "https://example.com" }, b);
    expect(b.basePath).toBe("/auth");
    const warn = vi.fn();
    const c: AuthConfig = { providers: [], basePath: "/custom" };
    setEnvDefaults({ AUTHLIB_URL: "https://example.com/api/auth" }, c, { warn });
    expect(c.basePath).toBe("/custom");
    expect(warn).toHaveBeenCalledWith("env-url-basepath-redundant");
    const d: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTHLIB_URL: "not a url" }, d, { warn });
    expect(d.basePath).toBe("/auth");
    expect(warn).toHaveBeenCalledWith("invalid-env-url");
  });

  it("accepts Auth.js's AUTH_URL as an alias of AUTHLIB_URL (url, basePath and trustHost follow it)", () => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTH_URL: "https://app.example.com/api/auth", NODE_ENV: "production" }, config, { warn: vi.fn() });
    expect(config).toMatchObject({ url: "https://app.example.com/api/auth", basePath: "/api/auth", trustHost: true });
  });

  it("AUTHLIB_URL wins over a different AUTH_URL, with an env-url-alias-conflict warning", () => {
    const warn = vi.fn();
    const config: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTHLIB_URL: "https://new.example.com", AUTH_URL: "https://old.example.com/api/auth" }, config, { warn });
    expect(config).toMatchObject({ url: "https://new.example.com", basePath: "/auth" });
    expect(warn).toHaveBeenCalledWith("env-url-alias-conflict");
    const same = vi.fn();
    setEnvDefaults({ AUTHLIB_URL: "https://new.example.com", AUTH_URL: "https://new.example.com" }, { providers: [] }, { warn: same });
    expect(same).not.toHaveBeenCalled();
  });

  it("takes Auth.js's third argument (suppressBasePathWarning) without throwing; other warnings go to config.logger", () => {
    const warn = vi.fn();
    const suppressed: AuthConfig = { providers: [], basePath: "/custom", logger: { warn } };
    expect(() => setEnvDefaults({ AUTH_URL: "https://app.example.com/api/auth" }, suppressed, true)).not.toThrow();
    expect(suppressed.basePath).toBe("/custom");
    expect(warn).not.toHaveBeenCalled();

    const reported: AuthConfig = { providers: [], basePath: "/custom", logger: { warn } };
    setEnvDefaults({ AUTH_URL: "https://app.example.com/api/auth", AUTHLIB_URL: "https://app.example.com/x" }, reported, false);
    expect(warn.mock.calls.map(([code]) => code)).toEqual(["env-url-alias-conflict", "env-url-basepath-redundant"]);
  });

  it("reads AUTH_REDIRECT_PROXY_URL", () => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example.com/auth" }, config);
    expect(config.redirectProxyUrl).toBe("https://proxy.example.com/auth");
  });

  it.each([
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "false" }, false],
    [{ AUTH_TRUST_HOST: "0", AUTHLIB_URL: "https://x.y" }, false],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "production", AUTHLIB_URL: "https://x.y" }, true],
    [{ NODE_ENV: "development" }, true],
    [{ NODE_ENV: "test" }, true],
    [{ NODE_ENV: "production", VERCEL: "1" }, true],
  ])("trustHost from %o is %s", (env, expected) => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults(env, config);
    expect(config.trustHost).toBe(expected);
  });

  it("keeps an explicit trustHost", () => {
    const config: AuthConfig = { providers: [], trustHost: false };
    setEnvDefaults({ AUTH_TRUST_HOST: "true" }, config);
    expect(config.trustHost).toBe(false);
  });

  it("fills provider credentials from AUTH_<ID>_ID|SECRET|ISSUER|KEY", () => {
    const preset = (options: Record<string, unknown> = {}) => ({ ...oauth("my-idp"), ...options }) as ProviderConfig;
    const config: AuthConfig = {
      providers: [
        oauth("auth0"),
        preset,
        oauth("github", { clientId: "explicit" } as Partial<ProviderConfig>),
        { id: "resend", name: "Resend", type: "email", sendVerificationRequest: () => {} },
        { id: "credentials", name: "C", type: "credentials", credentials: {}, authorize: () => null },
      ],
    };
    setEnvDefaults(
      {
        AUTH_AUTH0_ID: "a0-id",
        AUTH_AUTH0_SECRET: "a0-secret",
        AUTH_AUTH0_ISSUER: "https://a0.example.com",
        AUTH_MY_IDP_ID: "idp-id",
        AUTH_GITHUB_ID: "env-gh",
        AUTH_RESEND_KEY: "re_123",
      },
      config,
    );
    const [auth0, myIdp, github, resend, credentials] = config.providers as Array<Record<string, unknown>>;
    expect(auth0).toMatchObject({ clientId: "a0-id", clientSecret: "a0-secret", issuer: "https://a0.example.com" });
    expect(myIdp).toMatchObject({ id: "my-idp", clientId: "idp-id" });
    expect(github).toMatchObject({ clientId: "explicit" });
    expect(resend).toMatchObject({ apiKey: "re_123" });
    expect(credentials).not.toHaveProperty("clientId");
  });
});

describe("an environment that refuses reads (Deno without --allow-env)", () => {
  // Deno's `process.env` and `Deno.env.get` throw `NotCapable` for every read without the env permission.
  const refuse = () => {
    throw Object.assign(new Error('Requires env access to "get", run again with the --allow-env flag'), { name: "NotCapable" });
  };

  it("readEnv treats a refused read as unset, for records and getters", () => {
    const record = new Proxy({} as Record<string, string | undefined>, { get: refuse });
    expect(readEnv(record, "AUTH_SECRET")).toBeUndefined();
    expect(readEnv({ get: refuse }, "AUTH_SECRET")).toBeUndefined();
    const config: AuthConfig = { providers: [], secret: "from-config" };
    setEnvDefaults({ get: refuse }, config);
    expect(config.secret).toBe("from-config");
  });

  it("Auth() answers GET /session with an explicit config instead of failing on the process env", async () => {
    const original = Object.getOwnPropertyDescriptor(process, "env") as PropertyDescriptor;
    const token = await encode({
      token: { sub: "u1", name: "Ada" },
      secret: "env-test-secret-0123456789abcdef",
      salt: "authlib.session-token",
    });
    const request = new Request("http://localhost:3000/auth/session", { headers: { cookie: `authlib.session-token=${token}` } });
    Object.defineProperty(process, "env", { value: new Proxy({}, { get: refuse }), configurable: true, writable: true });
    let response: Response;
    try {
      response = await Auth(request, { secret: "env-test-secret-0123456789abcdef", trustHost: true, providers: [] });
    } finally {
      Object.defineProperty(process, "env", original);
    }
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Ada");
  });
});
