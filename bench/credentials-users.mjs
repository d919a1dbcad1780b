// The signed-in users of the JWT session-check benches (session-registry.mjs, telemetry.mjs): a Credentials
// configuration whose `authorize` accepts anyone and does no hashing, users signed in through its real
// CSRF + form flow, and session checks that rotate through their cookies.
import { Auth } from "@authlib/core";
import Credentials from "@authlib/core/providers/credentials";

export const SECRET = "bench-secret-0123456789abcdef0123456789";
export const ORIGIN = "http://localhost:3000";
/** The session cookie's name on http (no `__Host-` prefix), which is also the token's salt. */
export const SESSION_COOKIE = "authlib.session-token";
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** An authorize that accepts anyone and does no hashing; the user's id comes from the address. */
const authorize = async ({ email }) => ({ id: String(email).split("@")[0], name: String(email), email: String(email) });

/** A GET of `<ORIGIN>/auth/<path>`, with `cookie` when given. */
export const get = (path, cookie) => new Request(`${ORIGIN}/auth/${path}`, { headers: cookie ? { cookie } : {} });

export function check(condition, what) {
  if (!condition) throw new Error(`bench setup: ${what}`);
}

/** The benches' configuration (basePath `/auth`), with `extra` options merged in. */
export function credentialsConfig(extra = {}) {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [Credentials({ credentials: { email: {}, password: {} }, authorize })],
    ...extra,
  };
}

/** Signs user `i` in through the credentials form of `config` (CSRF flow) and returns its session cookie. */
export async function signIn(config, i) {
  const csrf = await Auth(get("csrf"), config);
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const body = new URLSearchParams({ csrfToken, email: `user-${i}@example.com`, password: "x", callbackUrl: `${ORIGIN}/` });
  const response = await Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
      body,
    }),
    config,
  );
  const session = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  check(response.status === 302 && session !== undefined, `sign-in of user ${i} set no session cookie (status ${response.status})`);
  return session;
}

/** A session check of `config` that sends the next of `cookies` in rotation (its own counter). */
export function rotatingCheck(config, cookies) {
  let next = 0;
  return () => {
    const cookie = cookies[next];
    next = (next + 1) % cookies.length;
    return Auth(get("session", cookie), config);
  };
}
