// This build of @authlib/core next to another build of it (an earlier commit's dist), interleaved: the
// session check (JWT, `getSession()` and `Auth() GET /session`) and a CSRF token. For a change that must
// not make the hot path slower: `node bench/versus.mjs <path to the other packages/core/dist>` prints the
// rows and the ratio this / other (1.00 = as fast).
//
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm install && npx tsc -p packages/core/tsconfig.json)
//   npm run build && node bench/versus.mjs /tmp/before/packages/core/dist
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Auth, getSession } from "@authlib/core";
import { encode } from "@authlib/core/jwt";
import Credentials from "@authlib/core/providers/credentials";
import { formatTable, interleave } from "./harness.mjs";

const other = process.argv[2];
if (!other) throw new Error("Usage: node bench/versus.mjs <path to another build's packages/core/dist>");
const load = (path) => import(pathToFileURL(resolve(other, path)).href);
const [before, beforeCredentials] = await Promise.all([load("index.js"), load("providers/credentials.js")]);

const SECRET = "bench-secret-0123456789abcdef0123456789";
const SALT = "authlib.session-token";
const CLAIMS = { sub: "user-1", name: "Ada Lovelace", email: "ada@example.com" };
const configOf = (provider) => ({
  secret: SECRET,
  url: "http://localhost:3000",
  providers: [provider({ credentials: { email: {} }, authorize: async () => ({ id: "user-1" }) })],
  logger: { error() {}, warn() {}, debug() {} },
});
const ours = configOf(Credentials);
const theirs = configOf(beforeCredentials.default);
const cookie = `${SALT}=${await encode({ token: CLAIMS, secret: SECRET, salt: SALT })}`;
const page = () => new Request("http://localhost:3000/", { headers: { cookie } });
const sessionRoute = () => new Request("http://localhost:3000/auth/session", { headers: { cookie } });
const csrfRoute = () => new Request("http://localhost:3000/auth/csrf");

for (const [name, result] of [
  ["this", await getSession(page(), ours)],
  ["other", await before.getSession(page(), theirs)],
]) {
  if (result.data?.user?.email !== CLAIMS.email) throw new Error(`${name} build did not read the session`);
}

const rounds = Number(process.env.ROUNDS ?? 15);
const rows = await interleave(
  [
    { name: "getSession() (JWT)", ours: () => getSession(page(), ours), theirs: () => before.getSession(page(), theirs) },
    { name: "Auth() GET /session (JWT)", ours: () => Auth(sessionRoute(), ours), theirs: () => before.Auth(sessionRoute(), theirs) },
    { name: "Auth() GET /csrf", ours: () => Auth(csrfRoute(), ours), theirs: () => before.Auth(csrfRoute(), theirs) },
  ],
  { rounds },
);
console.log(formatTable(rows, { ours: "this build (ops/s)", theirs: "other build (ops/s)", ratio: "this / other" }));
