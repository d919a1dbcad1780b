// bench/session: GET /session through Auth() in-process, authlib vs @auth/core with the same config, one run.
// Run: npm run build && node bench/session.mjs
import { Auth as RefAuth } from "@auth/core";
import { encode as refEncode } from "@auth/core/jwt";
import RefCredentials from "@auth/core/providers/credentials";
import { Auth } from "@authlib/core";
import { encode } from "@authlib/core/jwt";
import Credentials from "@authlib/core/providers/credentials";
import { compare } from "./measure.mjs";

const secret = "bench-secret-0123456789abcdef0123456789";
const user = { sub: "user-1", name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/a.png" };
const authorize = async () => null;

const ours = { secret, trustHost: true, basePath: "/auth", providers: [Credentials({ authorize })] };
// Same, but re-issuing the cookie on every check, as the reference does: isolates the updateAge saving.
const oursEager = { ...ours, session: { updateAge: 0 } };
const reference = { secret, trustHost: true, basePath: "/auth", providers: [RefCredentials({ authorize })] };

const ourCookie = `authlib.session-token=${await encode({ token: user, secret, salt: "authlib.session-token" })}`;
const refCookie = `authjs.session-token=${await refEncode({ token: user, secret, salt: "authjs.session-token" })}`;
const request = (cookie) => new Request("http://localhost:3000/auth/session", { headers: { cookie } });

// Sanity: both answer the same session.
const a = await (await Auth(request(ourCookie), ours)).json();
const b = await (await RefAuth(request(refCookie), reference)).json();
if (a?.user?.email !== user.email || b?.user?.email !== user.email) throw new Error("bench setup: sessions differ");

const rows = await compare(
  "GET /session with a valid JWT cookie (in-process Auth())",
  {
    "@auth/core Auth() (reference)": () => RefAuth(request(refCookie), reference),
    "authlib Auth()": () => Auth(request(ourCookie), ours),
    "authlib Auth(), updateAge 0 (re-issue every time)": () => Auth(request(ourCookie), oursEager),
  },
  { baseline: "@auth/core Auth() (reference)" },
);
console.log(`\nauthlib re-issues the session cookie only when updateAge (default 1 day) has passed or the token changed;
the reference re-encrypts and re-sets it on every call.`);
export default rows;
