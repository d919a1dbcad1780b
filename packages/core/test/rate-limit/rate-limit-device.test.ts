/**
 * Issue 26: the credentials limits cannot be turned against users. Through `Auth()`, on each real store
 * (memory, Redis, PostgreSQL):
 * - a login name sent as a JSON array (or object, or number) is refused before `authorize`, and counted
 *   against the client;
 * - device cookies: an attacker's failures from many addresses lock the account for unknown browsers,
 *   never for a browser that has signed in to it before; that browser's own wrong guesses lock it; a
 *   device token of another account, a forged or an expired one is an unknown browser.
 * `authorize` compares plain passwords (no hashing: the limits, not the hash, are under test).
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import Credentials from "../../src/providers/credentials.js";
import { DEVICE_TOKEN_MAX_AGE, knownDevice, MAX_DEVICE_TOKENS, rememberDevice } from "../../src/rate-limit/device-token.js";
import type { RateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { storeKinds } from "../helpers/store-kinds.js";

const secret = "device-cookie-test-secret-0123456789abcdef";
const LOCKOUT = 10;
const kinds = await storeKinds();
afterAll(async () => {
  for (const kind of kinds) if (kind.available) await kind.close();
});

/** An app whose accounts are `passwords`; `calls` records every account `authorize` ran for. */
function app(store: RateLimitStore, passwords: Record<string, string>, origin = "http://localhost:3000") {
  const calls: unknown[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        authorize: ({ email, password }) => {
          calls.push(email);
          // As apps do: String() whatever arrived. An array of one name would become that name.
          const name = String(email);
          return passwords[name] !== undefined && passwords[name] === password ? { id: name, email: name } : null;
        },
      }),
    ],
    // No delays, so that the lockout (not the pace) decides each outcome.
    rateLimit: { store, credentials: { freeFailures: LOCKOUT, lockoutFailures: LOCKOUT } },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
  /** A browser of its own (its own cookie jar). */
  const browser = () => {
    const client = authClient(config, origin);
    async function signIn(email: unknown, password: string, address: string, json = false) {
      const csrfToken = await client.csrf();
      const fields = { csrfToken, callbackUrl: "/welcome", email, password };
      const response = await client.send("/auth/callback/credentials", {
        clientAddress: address,
        ...(json ? { json: fields, headers: { "x-auth-return-redirect": "1" } } : { form: fields as Record<string, string> }),
      });
      const target = json ? ((await response.json()) as { url?: string }).url : response.headers.get("location");
      const url = new URL(target ?? "", origin);
      return url.searchParams.get("error") ?? (url.pathname === "/welcome" ? "signed-in" : `status ${response.status}`);
    }
    return { client, signIn };
  };
  return { config, calls, browser };
}

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`credentials limits on the ${kind.name} store`, () => {
    it("a login name sent as an array (or object, or number) never reaches authorize: 60 guesses, all refused, counted against the client", async () => {
      const victim = `victim-${randomUUID()}@example.com`;
      const { calls, browser } = app(await kind.open(), { [victim]: "right" });
      const attacker = browser();
      const outcomes: string[] = [];
      for (let i = 0; i < 60; i++) outcomes.push(await attacker.signIn([victim], `guess-${i}`, "198.51.100.7", true));
      expect(calls).toEqual([]);
      // The first 50 (the client's allowance) are refused as bad credentials, the rest as too many.
      expect(outcomes.slice(0, 50)).toEqual(Array(50).fill("CredentialsSignin"));
      expect(outcomes.slice(50)).toEqual(Array(10).fill("RateLimited"));
      for (const shape of [{ 0: victim }, 42, true, null]) {
        expect(await attacker.signIn(shape, "guess", "198.51.100.8", true)).toBe("CredentialsSignin");
      }
      expect(await attacker.signIn({ 0: victim }, "right", "198.51.100.9", true)).toBe("CredentialsSignin");
      expect(calls).toEqual([]);
      // The owner, sending text, is not affected.
      expect(await browser().signIn(victim, "right", "203.0.113.1", true)).toBe("signed-in");
    });

    it("an attacker's 30 failures from 30 addresses lock out unknown browsers, never the owner's known one", async () => {
      const owner = `owner-${randomUUID()}@example.com`;
      const { browser, calls } = app(await kind.open(), { [owner]: "right" });
      const laptop = browser();
      expect(await laptop.signIn(owner, "right", "203.0.113.10")).toBe("signed-in");
      // Signing out keeps the device token.
      const csrfToken = await laptop.client.csrf();
      await laptop.client.send("/auth/signout", { form: { csrfToken } });
      expect(laptop.client.jar.get("authlib.device-token")).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{32}\.\d+\.[0-9a-f]{64}$/);
      expect(await laptop.client.session()).toBeNull();

      const attacker = browser();
      const outcomes: string[] = [];
      for (let i = 0; i < 30; i++) outcomes.push(await attacker.signIn(owner, `guess-${i}`, `192.0.2.${i + 1}`));
      expect(outcomes.slice(0, LOCKOUT)).toEqual(Array(LOCKOUT).fill("CredentialsSignin"));
      expect(outcomes.slice(LOCKOUT)).toEqual(Array(30 - LOCKOUT).fill("RateLimited"));

      // The owner's browser signs in at once, from its usual address or any other.
      expect(await laptop.signIn(owner, "right", "203.0.113.10")).toBe("signed-in");
      expect((await laptop.client.session())?.user?.email).toBe(owner);
      // An unknown browser with the right password is still locked (and authorize does not run for it).
      const before = calls.length;
      expect(await browser().signIn(owner, "right", "203.0.113.11")).toBe("RateLimited");
      expect(calls.length).toBe(before);
    });

    it("a known device's own wrong guesses lock that device only; the owner's other device and the account count stay apart", async () => {
      const owner = `owner-${randomUUID()}@example.com`;
      const { browser } = app(await kind.open(), { [owner]: "right" });
      const laptop = browser();
      const phone = browser();
      expect(await laptop.signIn(owner, "right", "203.0.113.20")).toBe("signed-in");
      expect(await phone.signIn(owner, "right", "203.0.113.21")).toBe("signed-in");

      const guesses: string[] = [];
      for (let i = 0; i < LOCKOUT + 2; i++) guesses.push(await laptop.signIn(owner, `typo-${i}`, "203.0.113.20"));
      expect(guesses).toEqual([...Array(LOCKOUT).fill("CredentialsSignin"), "RateLimited", "RateLimited"]);
      expect(await laptop.signIn(owner, "right", "203.0.113.20")).toBe("RateLimited");
      // The phone is another device; an unknown browser is counted on the account, which saw none of it.
      expect(await phone.signIn(owner, "right", "203.0.113.21")).toBe("signed-in");
      expect(await browser().signIn(owner, "right", "203.0.113.22")).toBe("signed-in");
    });

    it("behind one proxy address: other clients' 50 failures refuse unknown browsers there, not the owner's known one", async () => {
      const owner = `owner-${randomUUID()}@example.com`;
      const proxy = "10.0.0.1";
      const { browser } = app(await kind.open(), { [owner]: "right" });
      const laptop = browser();
      expect(await laptop.signIn(owner, "right", proxy)).toBe("signed-in");
      const attacker = browser();
      // Failures spread over many accounts, so only the client limit (50 by default) is reached.
      for (let i = 0; i < 50; i++) expect(await attacker.signIn(`nobody-${i}@example.com`, "guess", proxy)).toBe("CredentialsSignin");
      expect(await attacker.signIn(`nobody-50@example.com`, "guess", proxy)).toBe("RateLimited");
      expect(await browser().signIn(owner, "right", proxy)).toBe("RateLimited");
      expect(await laptop.signIn(owner, "right", proxy)).toBe("signed-in");
    });

    it("a device token for account A gives nothing for account B, and a forged one nothing at all", async () => {
      const alice = `alice-${randomUUID()}@example.com`;
      const bob = `bob-${randomUUID()}@example.com`;
      const { browser } = app(await kind.open(), { [alice]: "alice-pw", [bob]: "bob-pw" });
      const attacker = browser();
      // The attacker owns account A and so holds a real device token for it.
      expect(await attacker.signIn(alice, "alice-pw", "192.0.2.50")).toBe("signed-in");
      const token = attacker.client.jar.get("authlib.device-token") as string;
      for (let i = 0; i < LOCKOUT; i++) expect(await attacker.signIn(bob, `guess-${i}`, "192.0.2.50")).toBe("CredentialsSignin");
      expect(await attacker.signIn(bob, "another", "192.0.2.51")).toBe("RateLimited");
      // Neither B's right password from the attacker's browser, nor a token edited to look like another device.
      expect(await attacker.signIn(bob, "bob-pw", "192.0.2.51")).toBe("RateLimited");
      const forged = browser();
      const [tag, nonce, expiry, mac] = token.split(".") as [string, string, string, string];
      for (const value of [
        `${tag}.${nonce}.${Number(expiry) + 1000}.${mac}`,
        `${tag}.${nonce.replace(/^./, (c) => (c === "a" ? "b" : "a"))}.${expiry}.${mac}`,
      ]) {
        forged.client.jar.cookies.set("authlib.device-token", { name: "authlib.device-token", value, attributes: {} });
        expect(await forged.signIn(bob, "bob-pw", "192.0.2.52")).toBe("RateLimited");
      }
    });
  });
}

for (const kind of kinds.filter((k) => k.name !== "memory")) {
  describe.skipIf(!kind.available)(`two instances sharing the ${kind.name} store`, () => {
    it("a device that signed in on one instance is known on the other; the attacker's failures on both lock only unknown browsers", async () => {
      const owner = `owner-${randomUUID()}@example.com`;
      // Two configuration objects, each with its own connection: nothing shared but the server and the secret.
      const first = app(await kind.open(), { [owner]: "right" });
      const second = app(await kind.open(), { [owner]: "right" });
      const laptop = first.browser();
      expect(await laptop.signIn(owner, "right", "203.0.113.40")).toBe("signed-in");

      const attackers = [first.browser(), second.browser()];
      const outcomes: string[] = [];
      for (let i = 0; i < 2 * LOCKOUT; i++)
        outcomes.push(await (attackers[i % 2] as (typeof attackers)[0]).signIn(owner, `guess-${i}`, `192.0.2.${i + 1}`));
      expect(outcomes.filter((o) => o === "CredentialsSignin")).toHaveLength(LOCKOUT);
      expect(await second.browser().signIn(owner, "right", "203.0.113.41")).toBe("RateLimited");

      // The laptop's cookie, taken to the other instance, is a known device there too.
      const onSecond = second.browser();
      for (const [name, cookie] of laptop.client.jar.cookies)
        if (name === "authlib.device-token") onSecond.client.jar.cookies.set(name, cookie);
      expect(await onSecond.signIn(owner, "right", "203.0.113.40")).toBe("signed-in");
    });
  });
}

describe("device tokens", () => {
  it("are bound to the provider and the account, expire, follow secret rotation and ignore what is not a token", async () => {
    const now = 1_800_000_000;
    const value = await rememberDevice([secret], "credentials", "alice@example.com", undefined, now);
    const nonce = await knownDevice([secret], "credentials", "alice@example.com", value, now);
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(await knownDevice([secret], "credentials", "bob@example.com", value, now)).toBeUndefined();
    expect(await knownDevice([secret], "other-provider", "alice@example.com", value, now)).toBeUndefined();
    expect(await knownDevice(["another-secret-0123456789abcdef012345"], "credentials", "alice@example.com", value, now)).toBeUndefined();
    // The old secret still reads tokens after a rotation.
    expect(await knownDevice(["new-secret-0123456789abcdef0123456789ab", secret], "credentials", "alice@example.com", value, now)).toBe(
      nonce,
    );
    // Expired after a year.
    expect(await knownDevice([secret], "credentials", "alice@example.com", value, now + 365 * 24 * 3600 - 1)).toBe(nonce);
    expect(await knownDevice([secret], "credentials", "alice@example.com", value, now + 365 * 24 * 3600)).toBeUndefined();
    for (const junk of [undefined, "", "x", `${value}x`, `x${value}`, value.toUpperCase(), value.replace(/\.(\d+)\./, ".9$1.")]) {
      expect(await knownDevice([secret], "credentials", "alice@example.com", junk, now)).toBeUndefined();
    }
  });

  it("one browser keeps a token per account it signed in to, the newest first, at most five; renewing keeps the device's nonce", async () => {
    const now = 1_800_000_000;
    let value: string | undefined;
    for (let i = 0; i < MAX_DEVICE_TOKENS + 2; i++)
      value = await rememberDevice([secret], "credentials", `user${i}@example.com`, value, now);
    expect(value?.split("~")).toHaveLength(MAX_DEVICE_TOKENS);
    expect(await knownDevice([secret], "credentials", "user6@example.com", value, now)).toBeDefined();
    expect(await knownDevice([secret], "credentials", "user2@example.com", value, now)).toBeDefined();
    expect(await knownDevice([secret], "credentials", "user1@example.com", value, now)).toBeUndefined();

    const nonce = await knownDevice([secret], "credentials", "user4@example.com", value, now);
    const renewed = await rememberDevice([secret], "credentials", "user4@example.com", value, now + 60);
    expect(renewed.split("~")).toHaveLength(MAX_DEVICE_TOKENS);
    expect(await knownDevice([secret], "credentials", "user4@example.com", renewed, now + 60)).toBe(nonce);
    expect(renewed.startsWith(`${renewed.split(".")[0]}.${nonce}.`)).toBe(true);
  });

  it("only the first five tokens of a cookie are read: stuffing it with more buys no more checks", async () => {
    const now = 1_800_000_000;
    let five: string | undefined;
    for (let i = 0; i < MAX_DEVICE_TOKENS; i++) five = await rememberDevice([secret], "credentials", `user${i}@example.com`, five, now);
    const bob = await rememberDevice([secret], "credentials", "bob@example.com", undefined, now);
    expect(await knownDevice([secret], "credentials", "bob@example.com", `${bob}~${five}`, now)).toBeDefined();
    expect(await knownDevice([secret], "credentials", "bob@example.com", `${five}~${bob}`, now)).toBeUndefined();
  });

  it("a sign-in replaces the account's own token (also one signed with an older secret) and drops expired ones", async () => {
    const now = 1_800_000_000;
    const first = await rememberDevice([secret], "credentials", "alice@example.com", undefined, now);
    expect((await rememberDevice([secret], "credentials", "alice@example.com", first, now + 60)).split("~")).toHaveLength(1);
    const rotated = ["new-secret-0123456789abcdef0123456789ab", secret];
    expect((await rememberDevice(rotated, "credentials", "alice@example.com", first, now + 60)).split("~")).toHaveLength(1);

    // Bob's token, made at `now`, expires at now + DEVICE_TOKEN_MAX_AGE: kept the second before, gone then.
    const bob = await rememberDevice([secret], "credentials", "bob@example.com", undefined, now);
    const justBefore = await rememberDevice([secret], "credentials", "alice@example.com", bob, now + DEVICE_TOKEN_MAX_AGE - 1);
    expect(justBefore.split("~")).toHaveLength(2);
    expect(justBefore.endsWith(bob)).toBe(true);
    const atExpiry = await rememberDevice([secret], "credentials", "alice@example.com", bob, now + DEVICE_TOKEN_MAX_AGE);
    expect(atExpiry.split("~")).toHaveLength(1);
  });

  it("refuses to make a token without a secret", async () => {
    await expect(rememberDevice([], "credentials", "alice@example.com", undefined)).rejects.toThrow(
      new TypeError("rememberDevice needs a secret"),
    );
  });

  it("on https the cookie is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/, for a year", async () => {
    const kind = kinds[0];
    if (!kind) throw new Error("no memory store kind");
    const owner = "https-owner@example.com";
    const { browser } = app(await kind.open(), { [owner]: "right" }, "https://app.example.com");
    const laptop = browser();
    expect(await laptop.signIn(owner, "right", "203.0.113.30")).toBe("signed-in");
    const cookie = laptop.client.jar.cookies.get("__Host-authlib.device-token");
    expect(cookie?.attributes).toMatchObject({ secure: true, httponly: true, samesite: "Lax", path: "/", maxAge: 31_536_000 });
    expect(cookie?.attributes).not.toHaveProperty("domain");
  });
});
