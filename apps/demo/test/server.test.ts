/**
 * The demo's server modules on their own: the development secret file, the demo user, and the
 * configuration built from the env.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CredentialsConfig } from "@authlib/core";
import { CredentialsSignin } from "@authlib/core";
import { afterEach, describe, expect, test, vi } from "vitest";
import { listEvents } from "../src/server/audit-log";
import { demoAuthConfig } from "../src/server/auth-config";
import { authorizeDemoUser, DEMO_EMAIL, DEMO_PASSWORD, demoPasswordHash } from "../src/server/demo-user";
import { localDevSecret } from "../src/server/dev-secret";

const env = (values: Record<string, string>) => ({ get: (name: string) => values[name] });
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "authlib-demo-"));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("localDevSecret", () => {
  test("generates a secret once, keeps it in <dataDir>/secret (owner-only) and warns", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dir = tempDir();
    const secret = localDevSecret(dir);
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect(readFileSync(join(dir, "secret"), "utf8").trim()).toBe(secret);
    expect(statSync(join(dir, "secret")).mode & 0o777).toBe(0o600);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("AUTH_SECRET is not set"));
    expect(localDevSecret(dir)).toBe(secret);
  });
});

describe("the demo user", () => {
  test("signs in with the shown password only, whatever the case of the email", async () => {
    expect(await demoPasswordHash()).toMatch(/^scrypt\$/);
    expect(await authorizeDemoUser(DEMO_EMAIL.toUpperCase(), DEMO_PASSWORD)).toMatchObject({ email: DEMO_EMAIL });
    expect(await authorizeDemoUser(DEMO_EMAIL, "wrong")).toBeNull();
    expect(await authorizeDemoUser("someone@else.dev", DEMO_PASSWORD)).toBeNull();
    expect(await authorizeDemoUser(undefined, DEMO_PASSWORD)).toBeNull();
  });
});

describe("demoAuthConfig", () => {
  test("uses AUTH_SECRET when set, and otherwise the local secret", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(demoAuthConfig(env({ AUTH_SECRET: "from-env" })).secret).toBeUndefined();
    const dir = tempDir();
    vi.stubEnv("DEMO_DATA_DIR", dir);
    expect(demoAuthConfig(env({})).secret).toBe(readFileSync(join(dir, "secret"), "utf8").trim());
  });

  test("offers GitHub and Google only when their id and secret are set", () => {
    const ids = (values: Record<string, string>) =>
      demoAuthConfig(env({ AUTH_SECRET: "x", ...values })).providers.map(
        (provider) => (typeof provider === "function" ? provider() : provider).id,
      );
    expect(ids({})).toEqual(["credentials"]);
    expect(ids({ AUTH_GITHUB_ID: "id" })).toEqual(["credentials"]);
    expect(ids({ AUTH_GITHUB_ID: "id", AUTH_GITHUB_SECRET: "s", AUTH_GOOGLE_ID: "id", AUTH_GOOGLE_SECRET: "s" })).toEqual([
      "credentials",
      "github",
      "google",
    ]);
  });

  test("rejects a wrong password with a CredentialsSignin whose code does not say which field was wrong", async () => {
    const [credentials] = demoAuthConfig(env({ AUTH_SECRET: "x" })).providers as [CredentialsConfig];
    const attempt = credentials.authorize({ email: DEMO_EMAIL, password: "wrong" }, new Request("http://localhost/"));
    await expect(attempt).rejects.toBeInstanceOf(CredentialsSignin);
    await expect(attempt).rejects.toMatchObject({ code: "invalid-login" });
  });

  test("sends authlib's events to the audit log", async () => {
    const { events } = demoAuthConfig(env({ AUTH_SECRET: "x" }));
    await events?.signIn?.({
      user: { email: DEMO_EMAIL },
      account: { provider: "credentials", providerAccountId: "1", type: "credentials" },
    });
    expect(listEvents()[0]).toMatchObject({ event: "signIn", subject: DEMO_EMAIL, detail: "provider credentials" });
  });
});
