// The in-process operations, ours (@authlib/core, built dist) next to the reference (@auth/core) with the
// same configuration: one Credentials provider whose authorize does no hashing, the same secret, the same
// token claims. Each operation is checked once before it is measured (both sides must answer the same
// thing), so a broken setup fails loudly instead of measuring an error path.
import { Auth as RefAuth } from "@auth/core";
import { decode as refDecode, encode as refEncode, getToken as refGetToken } from "@auth/core/jwt";
import RefCredentials from "@auth/core/providers/credentials";
import RefGitHub from "@auth/core/providers/github";
import { Auth, getSession } from "@authlib/core";
import { decode, encode, getToken } from "@authlib/core/jwt";
import Credentials from "@authlib/core/providers/credentials";
import GitHub from "@authlib/core/providers/github";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { floorHandler } from "./floor.mjs";

export const SECRET = "bench-secret-0123456789abcdef0123456789";
export const ORIGIN = "http://localhost:3000";
export const CLAIMS = { sub: "user-1", name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/a.png" };
const OUR_SALT = "authlib.session-token";
const REF_SALT = "authjs.session-token";

/** An authorize that accepts anyone and does no hashing: the round trip measures the library alone. */
const authorize = async (credentials) => ({ id: "user-1", name: "Ada Lovelace", email: String(credentials.email) });
const credentials = { email: {}, password: {} };

/** A session cookie for ours and for the reference (HTTP, so no __Secure- prefix). */
export async function sessionCookies() {
  return {
    ours: `${OUR_SALT}=${await encode({ token: CLAIMS, secret: SECRET, salt: OUR_SALT })}`,
    theirs: `${REF_SALT}=${await refEncode({ token: CLAIMS, secret: SECRET, salt: REF_SALT })}`,
  };
}

/** How many distinct users the rotation case cycles through: more than any per-cookie cache holds. */
export const USERS = 5000;

/** The claims of user `i` of the rotation case: every cookie is a different user. */
const userClaims = (i) => ({
  sub: `user-${i}`,
  name: `User ${i}`,
  email: `user-${i}@example.com`,
  picture: `https://example.com/${i}.png`,
});

/**
 * {@link USERS} session cookies of distinct users for ours and for the reference, and a function per
 * side that builds the next request in rotation (each side has its own counter: every call reads another
 * user's cookie, so no cache keyed by cookie value ever hits).
 */
async function rotatingSessionRequests() {
  const ours = [];
  const theirs = [];
  for (let i = 0; i < USERS; i++) {
    ours.push(`${OUR_SALT}=${await encode({ token: userClaims(i), secret: SECRET, salt: OUR_SALT })}`);
    theirs.push(`${REF_SALT}=${await refEncode({ token: userClaims(i), secret: SECRET, salt: REF_SALT })}`);
  }
  const rotation = (cookies) => {
    let next = 0;
    return () => {
      const cookie = cookies[next];
      next = (next + 1) % cookies.length;
      return get("session", cookie);
    };
  };
  return { ours, theirs, rotation };
}

const get = (path, cookie) => new Request(`${ORIGIN}/auth/${path}`, { headers: cookie ? { cookie } : {} });

function check(condition, what) {
  if (!condition) throw new Error(`bench setup: ${what}`);
}

/** The cookies a response sets, as one Cookie header value (name=value pairs). */
function cookieHeader(response) {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * The credentials round trip of one library: GET /csrf once (token and cookie), then each call POSTs
 * /callback/credentials and must get a redirect that sets a session cookie.
 */
async function credentialsRoundTrip(auth, config, sessionCookieName) {
  const csrf = await auth(get("csrf"), config);
  const { csrfToken } = await csrf.json();
  const cookie = cookieHeader(csrf);
  const body = new URLSearchParams({ csrfToken, email: "ada@example.com", password: "x", callbackUrl: `${ORIGIN}/` }).toString();
  const post = () =>
    auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
      config,
    );
  const first = await post();
  check(
    first.status === 302 && first.headers.getSetCookie().some((c) => c.startsWith(`${sessionCookieName}=`)),
    `credentials sign-in (${sessionCookieName}) did not set a session cookie`,
  );
  return post;
}

/**
 * One database (PGlite `memory://` or a PostgreSQL URL) with a user and a session, and both configs on it.
 * The provider is GitHub (never contacted): the reference refuses Credentials with database sessions.
 */
async function databaseSession(databaseURL) {
  const github = { clientId: "bench", clientSecret: "bench" };
  const ours = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [GitHub(github)] };
  const reference = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [RefGitHub(github)] };
  const branch = `bench_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new HostedDbClient({ databaseURL, branch });
  await client.migrate();
  const adapter = HostedDbAdapter(client);
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null, name: "Ada" });
  const sessionToken = crypto.randomUUID();
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86400_000) });
  const oursConfig = { ...ours, adapter };
  const refConfig = { ...reference, adapter, session: { strategy: "database" } };
  const oursCookie = `${OUR_SALT}=${sessionToken}`;
  const refCookie = `${REF_SALT}=${sessionToken}`;
  const a = await (await Auth(get("session", oursCookie), oursConfig)).json();
  check(a?.user?.email === "ada@example.com", `database session on ${databaseURL} (ours)`);
  // The same adapter object serves the reference: Auth.js's Adapter interface is the one we implement.
  let theirs = null;
  try {
    const b = await (await RefAuth(get("session", refCookie), refConfig)).json();
    if (b?.user?.email === "ada@example.com") theirs = () => RefAuth(get("session", refCookie), refConfig);
  } catch {
    theirs = null;
  }
  return {
    ours: () => Auth(get("session", oursCookie), oursConfig),
    theirs,
    close: async () => {
      await client.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
      await client.close();
    },
  };
}

/**
 * Builds the list of operations for {@link interleave}, and a `close` for the databases it opened.
 * PostgreSQL (`AUTHLIB_BENCH_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/test) is used when
 * it answers; otherwise its row is left out and `notes` says why.
 */
export async function inProcessOperations() {
  const ours = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [Credentials({ credentials, authorize })] };
  const reference = { secret: SECRET, trustHost: true, basePath: "/auth", providers: [RefCredentials({ credentials, authorize })] };
  const cookies = await sessionCookies();
  const notes = [];

  const oursToken = await encode({ token: CLAIMS, secret: SECRET, salt: OUR_SALT });
  const refToken = await refEncode({ token: CLAIMS, secret: SECRET, salt: REF_SALT });
  check((await decode({ token: oursToken, secret: SECRET, salt: OUR_SALT }))?.email === CLAIMS.email, "our decode");
  check((await refDecode({ token: refToken, secret: SECRET, salt: REF_SALT }))?.email === CLAIMS.email, "reference decode");

  const oursReq = { headers: { cookie: cookies.ours } };
  const refReq = { headers: { cookie: cookies.theirs } };
  check((await getToken({ req: oursReq, secret: SECRET }))?.email === CLAIMS.email, "our getToken");
  check((await refGetToken({ req: refReq, secret: SECRET, secureCookie: false }))?.email === CLAIMS.email, "reference getToken");

  const a = await (await Auth(get("session", cookies.ours), ours)).json();
  const b = await (await RefAuth(get("session", cookies.theirs), reference)).json();
  check(a?.user?.email === CLAIMS.email && b?.user?.email === CLAIMS.email, "JWT GET /session");

  // getSession(): ours is core's getSession; the reference has none in @auth/core, so its side is what
  // @auth/qwik (and next-auth) do: Auth() on a /session request built from the incoming one.
  const pageRequest = (cookie) => new Request(`${ORIGIN}/dashboard`, { headers: { cookie } });
  const refGetSession = async (request) => {
    const response = await RefAuth(new Request(new URL("/auth/session", request.url), { headers: request.headers }), reference);
    return { data: await response.json(), cookie: response.headers.get("set-cookie") };
  };
  check((await getSession(pageRequest(cookies.ours), ours)).data?.user?.email === CLAIMS.email, "our getSession");
  check((await refGetSession(pageRequest(cookies.theirs))).data?.user?.email === CLAIMS.email, "reference getSession");

  // 5,000 users in rotation, and the floor: a bare handler doing only what any secure check must.
  const users = await rotatingSessionRequests();
  const floor = floorHandler(SECRET, OUR_SALT);
  for (const i of [0, USERS - 1]) {
    const email = `user-${i}@example.com`;
    const mine = await (await Auth(get("session", users.ours[i]), ours)).json();
    const ref = await (await RefAuth(get("session", users.theirs[i]), reference)).json();
    const bare = await (await floor(get("session", users.ours[i]))).json();
    check(mine?.user?.email === email && ref?.user?.email === email && bare?.user?.email === email, `GET /session of user ${i}`);
  }
  const nextOurs = users.rotation(users.ours);
  const nextTheirs = users.rotation(users.theirs);
  const nextFloor = users.rotation(users.ours);

  const oursSignIn = await credentialsRoundTrip(Auth, ours, OUR_SALT);
  const refSignIn = await credentialsRoundTrip(RefAuth, reference, REF_SALT);

  const pglite = await databaseSession("memory://");
  const pgUrl = process.env.AUTHLIB_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  let postgres = null;
  try {
    postgres = await databaseSession(pgUrl);
  } catch (error) {
    notes.push(`PostgreSQL at ${pgUrl.replace(/:[^:@/]*@/, ":***@")} did not answer (${error.message}): its row is left out.`);
  }
  for (const [name, db] of [
    ["PGlite", pglite],
    ["PostgreSQL", postgres],
  ]) {
    if (db && !db.theirs) notes.push(`The reference could not read a database session on ${name} with our adapter: its side is empty.`);
  }

  const operations = [
    {
      name: "encode",
      ours: () => encode({ token: CLAIMS, secret: SECRET, salt: OUR_SALT }),
      theirs: () => refEncode({ token: CLAIMS, secret: SECRET, salt: REF_SALT }),
    },
    {
      name: "decode",
      ours: () => decode({ token: oursToken, secret: SECRET, salt: OUR_SALT }),
      theirs: () => refDecode({ token: refToken, secret: SECRET, salt: REF_SALT }),
    },
    {
      name: "getToken",
      ours: () => getToken({ req: oursReq, secret: SECRET }),
      theirs: () => refGetToken({ req: refReq, secret: SECRET, secureCookie: false }),
    },
    {
      name: "Auth() GET /session (JWT)",
      ours: () => Auth(get("session", cookies.ours), ours),
      theirs: () => RefAuth(get("session", cookies.theirs), reference),
    },
    {
      name: `Auth() GET /session (JWT), ${USERS.toLocaleString("en")} users`,
      ours: () => Auth(nextOurs(), ours),
      theirs: () => RefAuth(nextTheirs(), reference),
      floor: () => floor(nextFloor()),
    },
    { name: "Auth() GET /session (database, PGlite)", ours: pglite.ours, theirs: pglite.theirs },
    ...(postgres ? [{ name: "Auth() GET /session (database, PostgreSQL)", ours: postgres.ours, theirs: postgres.theirs }] : []),
    { name: "Auth() GET /csrf", ours: () => Auth(get("csrf"), ours), theirs: () => RefAuth(get("csrf"), reference) },
    { name: "Auth() GET /providers", ours: () => Auth(get("providers"), ours), theirs: () => RefAuth(get("providers"), reference) },
    { name: "credentials round trip (POST /callback/credentials)", ours: oursSignIn, theirs: refSignIn },
    {
      name: "getSession() (JWT)",
      ours: () => getSession(pageRequest(cookies.ours), ours),
      theirs: () => refGetSession(pageRequest(cookies.theirs)),
    },
  ];
  return {
    operations,
    notes,
    close: async () => {
      await pglite.close();
      await postgres?.close();
    },
  };
}
