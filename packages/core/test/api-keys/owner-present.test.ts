/**
 * The owner-present rule on API keys: a session cookie copied from its owner and used 30 minutes after the
 * sign-in (JWT and database sessions) cannot create, rotate or revoke a key, over HTTP, through the account
 * page's form or through `auth.api` (`RecentSignInRequired`, nothing changed: a stolen session may not cut the
 * owner's machines off either); it may still list them. The owner, signed in again, gets through, and a revoke
 * mails them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { memorySessionStore } from "../../src/session/memory-store.js";
import { apiKeysApp, type Browser, ORIGIN, PASSWORD, post, postJson } from "./helpers.js";

afterEach(() => void vi.useRealTimers());

const THIRTY_MINUTES = 30 * 60 * 1000;
const REAUTHENTICATE = `${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/auth/account`)}&error=RecentSignInRequired`;

function copyOf(app: { browser: () => Browser }, browser: Browser): Browser {
  const thief = app.browser();
  for (const [name, cookie] of browser.jar.cookies) thief.jar.cookies.set(name, cookie);
  return thief;
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`${strategy} sessions: a copied session 30 minutes old`, () => {
    it("cannot create, rotate or revoke a key (HTTP, form, auth.api); can list; the owner signed in again can", async () => {
      const app = apiKeysApp({ session: strategy === "jwt" ? { strategy, store: memorySessionStore() } : { strategy } });
      const owner = await app.signedUp(`owner-${strategy}@example.com`);
      const existing = await app.auth.api.createApiKey(app.as(owner), { name: "old" });
      const other = await app.auth.api.createApiKey(app.as(owner), { name: "other" });
      const thief = copyOf(app, owner);
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + THIRTY_MINUTES });
      const before = app.keys.keys.size;

      expect(await postJson(thief, "create", { name: "thief" })).toEqual({ status: 403, body: { error: "RecentSignInRequired" } });
      expect(await postJson(thief, "rotate", { keyId: existing.apiKey.id })).toEqual({
        status: 403,
        body: { error: "RecentSignInRequired" },
      });
      const form = await post(thief, "/auth/api-keys/form-create", { name: "thief" });
      expect(form.headers.get("location")).toBe(REAUTHENTICATE);
      const request = app.as(thief);
      await expect(app.auth.api.createApiKey(request, { name: "thief" })).rejects.toMatchObject({
        type: "RecentSignInRequired",
        operation: "createApiKey",
      });
      await expect(app.auth.api.rotateApiKey(request, { keyId: existing.apiKey.id })).rejects.toMatchObject({
        type: "RecentSignInRequired",
        operation: "rotateApiKey",
      });
      expect(app.keys.keys.size).toBe(before);
      expect(app.keys.keys.get(existing.apiKey.id)?.revokedAt).toBeNull();

      // Revoking needs the owner present too; listing does not.
      expect(await postJson(thief, "revoke", { keyId: other.apiKey.id })).toEqual({ status: 403, body: { error: "RecentSignInRequired" } });
      await expect(app.auth.api.revokeApiKey(request, { keyId: other.apiKey.id })).rejects.toMatchObject({
        type: "RecentSignInRequired",
        operation: "revokeApiKey",
      });
      expect((await post(thief, "/auth/api-keys/form-revoke", { keyId: other.apiKey.id })).headers.get("location")).toBe(REAUTHENTICATE);
      expect(app.keys.keys.get(other.apiKey.id)?.revokedAt).toBeNull();
      expect((await app.auth.api.listApiKeys(request)).length).toBe(2);

      // The owner, signed in again.
      const fresh = app.browser();
      await post(fresh, "/auth/callback/password", { email: `owner-${strategy}@example.com`, password: PASSWORD, callbackUrl: "/" });
      expect((await postJson(fresh, "create", { name: "new" })).status).toBe(200);
      expect((await postJson(fresh, "rotate", { keyId: existing.apiKey.id })).status).toBe(200);
      const mailed = app.mails.length;
      expect((await postJson(fresh, "revoke", { keyId: other.apiKey.id })).status).toBe(200);
      expect(app.mails.slice(mailed).map((mail) => [mail.to, mail.text.includes("An API key of your account was revoked.")])).toEqual([
        [`owner-${strategy}@example.com`, true],
      ]);
    }, 120_000);
  });
}
