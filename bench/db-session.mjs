// bench/db-session: GET /session through Auth() with database sessions (hosted-db adapter on PGlite and
// on a PostgreSQL server) next to the JWT strategy, and the reference library's JWT session, in one run.
// Run: npm run build && node bench/db-session.mjs   (PostgreSQL: AUTHLIB_BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test; skipped with a note when it does not answer)
import { Auth as RefAuth } from "@auth/core";
import { encode as refEncode } from "@auth/core/jwt";
import RefCredentials from "@auth/core/providers/credentials";
import { Auth } from "@authlib/core";
import { encode } from "@authlib/core/jwt";
import Credentials from "@authlib/core/providers/credentials";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { compare } from "./measure.mjs";

const secret = "bench-secret-0123456789abcdef0123456789";
const authorize = async () => null;
const base = { secret, trustHost: true, providers: [Credentials({ authorize })] };
const request = (cookie) => new Request("http://localhost:3000/auth/session", { headers: { cookie } });

async function databaseContender(databaseURL) {
  const branch = `bench_${Date.now()}`;
  const client = new HostedDbClient({ databaseURL, branch });
  await client.migrate();
  const adapter = HostedDbAdapter(client);
  const user = await adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null, name: "Ada" });
  const sessionToken = crypto.randomUUID();
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86400_000) });
  const config = { ...base, adapter };
  const cookie = `authlib.session-token=${sessionToken}`;
  const check = await (await Auth(request(cookie), config)).json();
  if (check?.user?.email !== "ada@example.com") throw new Error(`bench setup failed for ${databaseURL}`);
  return {
    run: () => Auth(request(cookie), config),
    close: async () => {
      await client.query(`DROP SCHEMA IF EXISTS "${branch}" CASCADE`);
      await client.close();
    },
  };
}

const pgUrl = process.env.AUTHLIB_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const pglite = await databaseContender("memory://");
let postgres;
try {
  postgres = await databaseContender(pgUrl);
} catch (error) {
  console.log(`PostgreSQL at ${pgUrl.replace(/:[^:@/]*@/, ":***@")} not available (${error.message}); measuring PGlite only.`);
}

const jwtCookie = `authlib.session-token=${await encode({ token: { sub: "u1", name: "Ada", email: "ada@example.com" }, secret, salt: "authlib.session-token" })}`;
const refCookie = `authjs.session-token=${await refEncode({ token: { sub: "u1", name: "Ada", email: "ada@example.com" }, secret, salt: "authjs.session-token" })}`;
const reference = { secret, trustHost: true, providers: [RefCredentials({ authorize })] };

const tasks = {
  "@auth/core Auth(), JWT session (reference)": () => RefAuth(request(refCookie), reference),
  "authlib Auth(), JWT session": () => Auth(request(jwtCookie), base),
  "authlib Auth(), database session on PGlite (in process)": pglite.run,
};
if (postgres) tasks["authlib Auth(), database session on PostgreSQL (pg pool)"] = postgres.run;
await compare("GET /session: database sessions next to JWT", tasks, { baseline: "@auth/core Auth(), JWT session (reference)" });
await pglite.close();
await postgres?.close();
