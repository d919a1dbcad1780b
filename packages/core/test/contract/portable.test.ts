/**
 * Core on every runtime: the password helper without `node:crypto`, `skipCSRFCheck` shared by two copies
 * of core, the passkey routes reachable only through `Passkey()`, the passkey script without a file system.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { hashPasswordWith, verifyPasswordWith } from "../../src/crypto/password-hash.js";
import { defaultScrypt, nobleScrypt, nodeScrypt, type ScryptFunction } from "../../src/crypto/scrypt.js";
import { Auth } from "../../src/kernel/auth.js";
import { hashPassword, verifyPassword } from "../../src/password.js";
import Credentials from "../../src/providers/credentials.js";
import { skipCSRFCheck } from "../../src/symbols.js";
import type { AuthConfig } from "../../src/types/config.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";

const native = nodeScrypt() as ScryptFunction;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("password hashing on every runtime", () => {
  it("finds node:crypto's scrypt on Node through process.getBuiltinModule, and uses it by default", () => {
    expect(native).toBeTypeOf("function");
    expect(defaultScrypt()).not.toBe(nobleScrypt);
  });

  it("both implementations compute RFC 7914's test vector", async () => {
    const params = { N: 1024, r: 8, p: 16, dkLen: 64 };
    const expected =
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640";
    expect(hex(await native(utf8("password"), utf8("NaCl"), params))).toBe(expected);
    expect(hex(await nobleScrypt(utf8("password"), utf8("NaCl"), params))).toBe(expected);
  });

  it("a hash made by one implementation verifies with the other, and a wrong password fails with both", async () => {
    const password = "correct horse battery staple ü";
    const byNode = await hashPasswordWith(native, password);
    const byNoble = await hashPasswordWith(nobleScrypt, password);
    expect(byNode).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(byNoble).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await verifyPasswordWith(nobleScrypt, password, byNode)).toBe(true);
    expect(await verifyPasswordWith(native, password, byNoble)).toBe(true);
    expect(await verifyPasswordWith(nobleScrypt, "correct horse battery staple u", byNode)).toBe(false);
    expect(await verifyPasswordWith(native, `${password} `, byNoble)).toBe(false);
  });

  it("hashes stored before this change (Buffer + node:crypto) still verify, with both implementations", async () => {
    // Made by the previous password.ts (scrypt from node:crypto, Buffer base64url) for this password.
    const stored =
      "scrypt$32768$8$1$L6t7f7a3tAfJ05w4i4Y2Xw$1TAdz5fNY54B1CeEt_hcGaWIsIdrJmucKx3THir_CqUbPPKAaymv65T1O0wzS1nA5jwha-gOmXE-tIwnzIUaPA";
    expect(await verifyPassword("correct horse battery staple ü", stored)).toBe(true);
    expect(await verifyPasswordWith(nobleScrypt, "correct horse battery staple ü", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(false);
  });

  it("a planted or corrupted hash is refused (false), never a crash or a huge allocation", async () => {
    const good = await hashPassword("pw");
    const [, , , , salt, key] = good.split("$");
    const planted = [
      `scrypt$1000$8$1$${salt}$${key}`, // N not a power of two: node:crypto would throw
      `scrypt$1048576$1024$1$${salt}$${key}`, // 128 GiB of memory
      `scrypt$32768$8$1$${salt}$${key}$extra`,
      `scrypt$32768$8$1$${salt}$${key?.slice(0, 20)}`,
      `scrypt$32768$8$1$${salt}$%%%`,
      `bcrypt$32768$8$1$${salt}$${key}`,
      "",
    ];
    for (const hash of planted) {
      expect(await verifyPassword("pw", hash), hash).toBe(false);
      expect(await verifyPasswordWith(nobleScrypt, "pw", hash), hash).toBe(false);
    }
    expect(await verifyPassword("pw", good)).toBe(true);
  });
});

const secret = "portable-test-secret-0123456789abcdef";
const ORIGIN = "http://localhost:3000";

function credentialsConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username }) => (username === "ada" ? { id: "1", name: "Ada" } : null),
      }),
    ],
    ...overrides,
  };
}

const signInWithoutCsrf = (config: AuthConfig) =>
  Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=ada&password=x",
    }),
    config,
  );

describe("skipCSRFCheck across copies of core", () => {
  it("is the registered symbol, so the one another copy of core exports (e.g. @authlib/qwik's) switches the check off too", async () => {
    expect(skipCSRFCheck).toBe(Symbol.for("authlib.skipCSRFCheck"));
    const dist = await import("../../dist/index.js").catch(() => undefined);
    if (dist) expect(dist.skipCSRFCheck).toBe(skipCSRFCheck);
    const response = await signInWithoutCsrf(
      credentialsConfig({ skipCSRFCheck: Symbol.for("authlib.skipCSRFCheck") as typeof skipCSRFCheck }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/`);
  });

  it("a look-alike unregistered symbol, a string or true does not switch it off", async () => {
    for (const value of [Symbol("authlib.skipCSRFCheck"), "authlib.skipCSRFCheck", true]) {
      const response = await signInWithoutCsrf(credentialsConfig({ skipCSRFCheck: value as never }));
      expect(response.headers.get("location")).toMatch(/[?&]error=MissingCSRF$/);
    }
  });
});

describe("passkey routes come with Passkey()", () => {
  afterAll(closeSharedPglite);

  it("a WebAuthn provider written as a plain object gets a configuration error (InvalidProvider, logged) on its routes, not a crash", async () => {
    const logged: string[] = [];
    const { adapter } = await freshDatabase();
    const config = credentialsConfig({
      adapter,
      providers: [{ id: "passkey", name: "Passkey", type: "webauthn" }],
      experimental: { enableWebAuthn: true },
      logger: { error: (error) => logged.push(error.name), warn: () => {}, debug: () => {} },
    });
    for (const path of ["/auth/webauthn-script", "/auth/webauthn-options/passkey?action=authenticate"]) {
      const response = await Auth(new Request(`${ORIGIN}${path}`), config);
      // Configuration errors reveal nothing to the client (the generic error page); the log names the cause.
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`);
    }
    expect(logged).toEqual(["InvalidProvider", "InvalidProvider"]);
  });

  it("the passkey script module reads no file: it has no node: import and embeds the browser bundle", () => {
    const source = readFileSync(new URL("../../src/webauthn/script-asset.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/from "node:|import\("node:|readFile|createRequire/);
    const generated = readFileSync(new URL("../../src/webauthn/browser-bundle.generated.ts", import.meta.url), "utf8");
    expect(generated).toContain("SimpleWebAuthnBrowser");
  });
});
