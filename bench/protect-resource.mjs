// What checking an access token costs an API or MCP server (`protectResource` of @authlib/core/resource,
// docs/resource-server.md) against authlib's own session check (`getSession` of a JWT session cookie, the
// in-process bench's getSession row). The token side: an ES256 access token (RFC 9068) verified against the
// issuer's JWKS, fetched once from a real `node:http` server before measuring (the key set is kept per URL,
// so no check fetches), with a revocation check within a 30 s bound (`revocationWithin`: a `Map` lookup
// between asks). The session side: 300 users' JWT session cookies. Interleaved
// (bench/harness.mjs: warm-up, alternating slices, median). Both sides rotate through 300 users' credentials,
// fewer than the 1,000 each side keeps verified (tokens) or decoded (sessions); a second row rotates through
// 1,500 tokens, so that every check verifies an ES256 signature (a token's first request). Runs alone (needs only the built @authlib/core):
//   ROUNDS=9 node bench/protect-resource.mjs
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { getSession } from "@authlib/core";
import { protectResource, revocationWithin } from "@authlib/core/resource";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { check, credentialsConfig, ORIGIN, signIn } from "./credentials-users.mjs";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave } from "./harness.mjs";

/** How many users sign in on the session side (fewer than the 1,000 decoded tokens core caches). */
export const SESSION_USERS = 300;

/** How many tokens the second row rotates through: more than the 1,000 kept verified, so each is verified anew. */
export const FRESH_TOKENS = 1500;

const RESOURCE = "https://api.example.com/mcp";

/** The issuer's JWKS on 127.0.0.1 (port 0); returns its issuer URL, its private key and `close`. */
async function jwksServer() {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "bench-key", alg: "ES256", use: "sig" }] });
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.url !== "/auth/oauth2/jwks") return void response.writeHead(404).end();
    fetches += 1;
    response.writeHead(200, { "content-type": "application/json" }).end(jwks);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    issuer: `http://127.0.0.1:${server.address().port}/auth`,
    privateKey,
    fetches: () => fetches,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** User `i`'s access token as authlib issues it: ES256, `typ: at+jwt`, for {@link RESOURCE}, valid for 10 minutes. */
function mint(issuer, privateKey, i) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: "bench-client", scope: "mcp projects:read", jti: `token-${i}`, grant_id: `grant-${i}`, auth_time: now })
    .setProtectedHeader({ alg: "ES256", kid: "bench-key", typ: "at+jwt" })
    .setIssuer(issuer)
    .setSubject(`user-${i}`)
    .setAudience(RESOURCE)
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(privateKey);
}

/**
 * The two sides, checked once each before measuring: the token verifies (and the JWKS was fetched once),
 * every session cookie answers its user. Returns the operation for {@link interleave} and `close`.
 */
export async function protectResourceOperations({ users = SESSION_USERS, freshTokens = FRESH_TOKENS, log = () => {} } = {}) {
  const server = await jwksServer();
  let revocationAsks = 0;
  const store = {
    isRevoked: async () => {
      revocationAsks += 1;
      return false;
    },
  };
  const options = { issuer: server.issuer, resource: RESOURCE, scopes: ["mcp"], revocation: revocationWithin(store, 30) };
  const tokenRequests = [];
  for (let i = 0; i < users; i++) {
    const token = await mint(server.issuer, server.privateKey, i);
    tokenRequests.push(new Request(`${RESOURCE}/tools`, { headers: { authorization: `Bearer ${token}` } }));
  }
  for (const i of [0, users - 1]) {
    const caller = await protectResource(tokenRequests[i], options);
    check(caller.userId === `user-${i}` && caller.grantId === `grant-${i}`, `protectResource refused user ${i}'s token`);
  }
  check(server.fetches() === 1, `the JWKS was fetched ${server.fetches()} times`);
  log(`  minting ${freshTokens} more tokens, for the row where each check verifies a signature…`);
  const freshRequests = [];
  for (let i = 0; i < freshTokens; i++) {
    const token = await mint(server.issuer, server.privateKey, users + i);
    freshRequests.push(new Request(`${RESOURCE}/tools`, { headers: { authorization: `Bearer ${token}` } }));
  }

  log(`  signing ${users} users in for the session side…`);
  const config = credentialsConfig();
  const pages = [];
  for (let i = 0; i < users; i++) pages.push(new Request(`${ORIGIN}/dashboard`, { headers: { cookie: await signIn(config, i) } }));
  for (const i of [0, users - 1]) {
    const { data } = await getSession(pages[i], config);
    check(data?.user?.email === `user-${i}@example.com`, `getSession of user ${i} gave ${JSON.stringify(data)}`);
  }
  const rotation = (list, call) => {
    let next = 0;
    return () => {
      const item = list[next];
      next = (next + 1) % list.length;
      return call(item);
    };
  };
  return {
    operations: [
      {
        name: `protectResource (ES256 JWT, JWKS kept, revocation within 30 s) vs getSession (JWT), ${users} users in rotation`,
        ours: rotation(tokenRequests, (request) => protectResource(request, options)),
        theirs: rotation(pages, (page) => getSession(page, config)),
      },
      {
        name: `the same, ${freshTokens} tokens in rotation (each signature verified anew)`,
        ours: rotation(freshRequests, (request) => protectResource(request, options)),
        theirs: rotation(pages, (page) => getSession(page, config)),
      },
    ],
    stats: () => ({ jwksFetches: server.fetches(), revocationAsks }),
    close: server.close,
  };
}

/** The row as a table (ratio: access-token checks / session checks per second). */
export function formatProtectResourceTable(rows) {
  const table = formatTable(rows, {
    operation: "check",
    ours: "protectResource (ops/s)",
    theirs: "getSession (ops/s)",
    ratio: "token / session",
  });
  const lines = rows.map(
    (row) =>
      `- CPU per check ${row.cpu.ours.toFixed(1)} µs (token), ${row.cpu.theirs.toFixed(1)} µs (session); checks made: ${row.calls.ours.toLocaleString("en")} token, ${row.calls.theirs.toLocaleString("en")} session`,
  );
  return `${table}\n\n${lines.join("\n")}`;
}

/** Measures the row: `rounds` interleaved rounds of `sliceMs` slices per side. */
export async function protectResourceRun({ rounds = Number(process.env.ROUNDS ?? 9), sliceMs = 300, log = () => {} } = {}) {
  const { operations, stats, close } = await protectResourceOperations({ log });
  try {
    log(`  measuring: ${rounds} rounds of ${sliceMs} ms slices per side…`);
    const rows = await interleave(operations, { rounds, sliceMs });
    const { jwksFetches } = stats();
    check(jwksFetches === 1, `the JWKS was fetched ${jwksFetches} times while measuring`);
    return rows;
  } finally {
    await close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line) => process.stderr.write(`${line}\n`);
  const rows = await protectResourceRun({ log });
  console.log(`# The access-token check of a resource server vs authlib's session check

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}
- interleaved, ${Number(process.env.ROUNDS ?? 9)} rounds, median
`);
  console.log(formatProtectResourceTable(rows));
}
