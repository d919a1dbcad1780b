/**
 * An app with the admin feature over real HTTP (the authorization server's test app, `startServerApp`):
 * `admin@example.com` and `second-admin@example.com` are admins (`isAdmin`), the audit rows are kept in
 * memory, and browsers sign up, sign in and impersonate over HTTP.
 */
import { instanceFor } from "../../src/kernel/auth.js";
import type { AdminConfig } from "../../src/types/admin.js";
import type { AuthConfig, SessionStrategy } from "../../src/types/config.js";
import type { AuditEvent } from "../../src/types/telemetry.js";
import { type Browser, post, startServerApp } from "../authorization-server/app.js";

export type { Browser };
export { post };

/** The admins of the app (by email). */
export const ADMINS = new Set(["admin@example.com", "second-admin@example.com"]);

/** Starts the app with `strategy` sessions and `admin` (merged over the `isAdmin` rule). */
export async function impersonationApp(strategy: SessionStrategy, admin: Partial<AdminConfig> = {}, config: Partial<AuthConfig> = {}) {
  const audit: AuditEvent[] = [];
  const app = await startServerApp({
    config: {
      session: { strategy },
      admin: { isAdmin: (user) => ADMINS.has(user.email ?? ""), ...admin },
      twoFactor: {},
      audit: { store: { write: (event) => void audit.push(event) } },
      ...(process.env.IMPERSONATION_DEBUG ? { logger: { error: (e: Error) => console.error(e), warn: () => {}, debug: () => {} } } : {}),
      ...config,
    },
  });
  /** The JSON answer of a POST of `form` by `browser`: `[status, body]`. */
  const postJson = async (browser: Browser, path: string, form: Record<string, string> = {}) => {
    const response = await post(browser, path, form);
    return [response.status, await response.json()] as const;
  };
  /** `admin` acting as `userId`: the answer of the impersonation. */
  const impersonate = (browser: Browser, userId: string) => postJson(browser, "/auth/admin/impersonate", { userId });
  const stop = (browser: Browser) => postJson(browser, "/auth/admin/stop-impersonating");
  // The instance the server runs (`Auth` keeps one per configuration object): `auth.api` in process.
  const auth = instanceFor(app.config);
  return { ...app, auth, audit, postJson, impersonate, stop };
}

/** The `Request` of an app page with `browser`'s cookies (for `auth.api`). */
export function requestOf(app: { origin: string }, browser: Browser): Request {
  return new Request(`${app.origin}/app`, { headers: { cookie: browser.jar.header() } });
}
