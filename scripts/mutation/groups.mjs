/**
 * The mutation-testing groups: each names the source files StrykerJS mutates and the few test files that
 * state their behaviour. A mutant runs only the tests of its own group (each survivor would otherwise run
 * most of the core suite), so a group's test files must be the ones that own those source files.
 * Grow this list as the trust-boundary and limits work lands (docs/testing.md).
 */

/** @typedef {{ name: string, mutate: string[], tests: string[] }} MutationGroup */

/** @param {string} path a path under packages/core/src */
function src(path) {
  return `packages/core/src/${path}`;
}

/** @param {string} path a path under packages/core/test */
function test(path) {
  return `packages/core/test/${path}`;
}

/** @type {MutationGroup[]} */
export const mutationGroups = [
  {
    name: "http",
    mutate: [src("http/csrf.ts"), src("http/redirect.ts"), src("http/cookie-chunks.ts"), src("crypto/compare.ts")],
    tests: [
      test("kernel/auth-flow.test.ts"),
      test("http/csrf.test.ts"),
      test("http/redirect.test.ts"),
      test("session/cookie-chunks.test.ts"),
      test("crypto/compare.test.ts"),
    ],
  },
  {
    name: "jwt",
    mutate: [src("jwt.ts")],
    tests: [test("session/jwt.test.ts"), test("session/jwt-fast-path.test.ts")],
  },
  {
    name: "email",
    mutate: [src("address/normalize.ts"), src("actions/email.ts")],
    tests: [test("email/email-signin.test.ts")],
  },
  {
    name: "canonical-address",
    // Issue 44: the one canonical address of the account lookup and of every limit key. Its unit file walks
    // the whole UTS #46 table of tr46 (under a second); the lockout attack through a variant
    // (canonical-address-attack.test.ts: PGlite, SMTP, real password hashes) stays out.
    mutate: [src("address/normalize.ts")],
    tests: [test("email/canonical-address.test.ts")],
  },
  {
    name: "oauth",
    mutate: [src("oauth/checks.ts")],
    tests: [test("oauth/checks.test.ts"), test("oauth/units.test.ts")],
  },
  {
    name: "linking",
    mutate: [src("sign-in/link-account.ts")],
    // planted-cookies.test.ts owns the explicit-link rules (link=true, signed in as another user).
    tests: [test("oauth/oauth-auth.test.ts"), test("session/planted-cookies.test.ts")],
  },
  {
    name: "cookies",
    mutate: [
      src("http/cookies.ts"),
      src("http/request.ts"),
      src("http/flow-binding.ts"),
      src("http/read-stream.ts"),
      src("http/response.ts"),
      src("http/error-response.ts"),
    ],
    // Unit-level owners that drive the modules directly (the route-level owners start servers per test).
    tests: [
      test("http/cookies.test.ts"),
      test("http/request.test.ts"),
      test("http/request-json-body.test.ts"),
      test("http/response.test.ts"),
    ],
  },
  {
    name: "origin",
    mutate: [src("http/origin.ts"), src("kernel/request-context.ts")],
    // origin.test.ts (the attacker walk-through) starts SMTP, an OP and PGlite: too slow per mutant.
    tests: [test("http/origin.test.ts")],
  },
  {
    name: "mail",
    mutate: [src("email/mail-service.ts"), src("email/template.tsx")],
    // email-services.test.ts (the sign-in through each service) needs PGlite: the direct statement is faster.
    tests: [test("email/mail-service.test.ts")],
  },
  {
    name: "rate-limit",
    mutate: [
      src("rate-limit/store.ts"),
      src("rate-limit/limiter.ts"),
      src("rate-limit/credentials.ts"),
      src("rate-limit/config.ts"),
      src("rate-limit/client-address.ts"),
      src("rate-limit/mailbox.ts"),
      src("rate-limit/redis.ts"),
      src("rate-limit/device-token.ts"),
    ],
    // rate-limit.test.ts and rate-limit-email-passkey.test.ts state the same rules end to end, but hash
    // real passwords, run an HTTP server, SMTP and PGlite (half a minute per mutant); rate-limit/rules.test.ts
    // drives the same modules directly in a few milliseconds. Redis runs on 127.0.0.1 (cheap).
    // rate-limit-device.test.ts owns device-token.ts (its unit tests, and Auth() through the in-process
    // client on each store: about a second, no HTTP server or PGlite); rate-limit-device-processes.test.ts
    // starts two processes and stays out. rate-limit-warnings.test.ts owns limiter.ts's deployment
    // warnings, lease-stores.test.ts the Redis lease (both a second or less; Redis and PostgreSQL are local).
    tests: [
      test("rate-limit/rules.test.ts"),
      test("rate-limit/rate-limit-store.test.ts"),
      test("rate-limit/rate-limit-stores.test.ts"),
      test("rate-limit/rate-limit-redis.test.ts"),
      test("rate-limit/rate-limit-device.test.ts"),
      test("rate-limit/rate-limit-warnings.test.ts"),
      test("oauth/lease-stores.test.ts"),
    ],
  },
  {
    name: "session",
    mutate: [
      src("session/jwt.ts"),
      src("session/database.ts"),
      src("session/refresh.ts"),
      src("session/refresh-lease.ts"),
      src("session/token-cache.ts"),
      src("session/json-shape.ts"),
      src("session/single-flight.ts"),
    ],
    // session/strategies.test.ts drives both strategies through Auth() with the in-memory adapter (the PGlite
    // of database-session.test.ts and the OpenID Provider of oauth-auth.test.ts cost seconds per mutant;
    // session-data.test.ts walks data 30,000 levels deep, and session-json-limits.test.ts a million nodes:
    // session/json-shape.test.ts states the node limit with a small one). refresh-lease.test.ts owns the
    // refresh lease on the local Redis (about a second); refresh-lease-instances.test.ts starts two
    // processes and stays out. database-claims.test.ts owns what a database session keeps beside its token
    // (the active organization on its row or in its sealed cookie), impersonation-decisions.test.ts its
    // impersonated sessions (both in process, on the in-memory adapter).
    tests: [
      test("session/strategies.test.ts"),
      test("session/token-cache.test.ts"),
      test("session/json-shape.test.ts"),
      test("session/single-flight.test.ts"),
      test("oauth/refresh-lease.test.ts"),
      test("session/database-claims.test.ts"),
      test("admin/impersonation-decisions.test.ts"),
    ],
  },
  {
    name: "session-control",
    // Issue 27: the registry, its memory store, the device label, the routes. Their tests drive them
    // through createAuth with the memory store and the memory adapter (milliseconds per mutant); the
    // Redis, PostgreSQL, process and Chromium tests of the same behaviour stay out.
    mutate: [
      src("session/registry.ts"),
      src("session/registry-of.ts"),
      src("session/session-id.ts"),
      src("session/memory-store.ts"),
      src("session/device.ts"),
      src("features/sessions/routes.ts"),
    ],
    tests: [
      test("session/session-control.test.ts"),
      test("session/session-revocation.test.ts"),
      test("session/session-control-rules.test.ts"),
      test("session/memory-adapter-records.test.ts"),
      test("actions/unproven-email.test.ts"),
    ],
  },
  {
    name: "crypto",
    // compare.ts is in the http group. The files under test/crypto/ state every module's behaviour cheaply
    // (small scrypt costs, no server); jwt-fast-path.test.ts and portable.test.ts hold the same rules with
    // slow property tests and real scrypt costs, too slow to re-run per mutant.
    mutate: [
      src("crypto/digest.ts"),
      src("crypto/jwe-webcrypto.ts"),
      src("crypto/jwe-node.ts"),
      src("crypto/jwe-rules.ts"),
      src("crypto/jwe-jose.ts"),
      src("crypto/derive-key.ts"),
      src("crypto/scrypt.ts"),
      src("crypto/password-hash.ts"),
      src("crypto/concurrency-gate.ts"),
      src("crypto/builtin.ts"),
    ],
    tests: [
      test("crypto/jwe-codecs.test.ts"),
      test("crypto/jwe-edge-cases.test.ts"),
      test("crypto/primitives.test.ts"),
      test("crypto/digest.test.ts"),
    ],
  },
  {
    name: "callback",
    mutate: [
      src("oauth/callback.ts"),
      src("actions/callback.ts"),
      src("sign-in/unproven-email.ts"),
      src("sign-in/proven-address.ts"),
      src("session/end-user-sessions.ts"),
    ],
    // No OpenID Provider or Chromium here: the fake provider (oauth/fake-server.ts) and the in-memory
    // adapter (helpers/memory-adapter.ts) keep each mutant's run short.
    tests: [
      test("oauth/callback-negatives.test.ts"),
      test("oauth/hostile-provider.test.ts"),
      test("oauth/fake-endpoints.test.ts"),
      // Not oauth-auth.test.ts (PGlite, slow per mutant): actions/callback.test.ts drives linking and
      // credentials through Auth() with the in-memory adapter. oauth-auth.test.ts stays in the linking group.
      test("actions/unproven-email.test.ts"),
      test("actions/callback.test.ts"),
      test("oauth/callback.test.ts"),
    ],
  },
  {
    name: "webauthn",
    mutate: [
      src("webauthn/routes.ts"),
      src("webauthn/challenge.ts"),
      src("webauthn/challenge-store.ts"),
      src("webauthn/used-challenges.ts"),
    ],
    // The soft authenticator (webauthn/soft-authenticator.ts), never Chromium, and the in-memory adapter: no
    // PGlite start-up per mutant (passkey-negative and passkey-callback pay ~25 s for it under load, which
    // made most mutants end in Timeout instead of a fast failure). The sealed challenge, the single-use record
    // and the instance's memory are stated directly by their own unit tests; passkey-bounded-state.test.ts
    // (PGlite, PostgreSQL, 10,000-request loops) states the same limits end to end, too slow per mutant.
    tests: [
      test("webauthn/passkey-routes.test.ts"),
      test("webauthn/challenge.test.ts"),
      test("webauthn/challenge-store.test.ts"),
      test("webauthn/used-challenges.test.ts"),
    ],
  },
  {
    name: "password",
    mutate: [
      src("sign-in/password-rules.ts"),
      src("sign-in/link-tokens.ts"),
      src("sign-in/password-config.ts"),
      src("sign-in/password-account.ts"),
      src("sign-in/password-mail.ts"),
      src("providers/password.ts"),
      src("sign-in/account-mail.ts"),
    ],
    // The flows over HTTP (password-flows, account-page: PGlite and an SMTP server per file) state the
    // routes; the parts are stated directly by the fast unit file, which is what a mutant can afford.
    tests: [test("password/password-units.test.ts")],
  },
  {
    name: "password-routes",
    mutate: [
      src("features/password/routes.ts"),
      src("features/password/sign-in.ts"),
      src("sign-in/current-password.ts"),
      src("sign-in/urls.ts"),
      src("pages/password.tsx"),
    ],
    // The routes on the in-memory adapter with the mails kept in memory: no database or mail server per mutant.
    // The pages of the routes (pages/password.tsx) are rendered directly by pages/password.test.ts.
    tests: [test("password/password-routes.test.ts"), test("pages/password.test.ts")],
  },
  {
    name: "account-lifecycle",
    mutate: [
      src("features/account/email-change.ts"),
      src("features/account/delete-account.ts"),
      src("features/account/page-routes.ts"),
      src("pages/account.tsx"),
      src("session/signed-in-user.ts"),
    ],
    // On the in-memory adapter with the mails kept in memory, like password-routes. The signed-in user the
    // account's operations read (session/signed-in-user.ts) is stated through the same routes; the account
    // page (pages/account.tsx) is also rendered directly by pages/account.test.ts.
    tests: [test("password/account-lifecycle.test.ts"), test("pages/account.test.ts")],
  },
  {
    name: "two-factor-units",
    // The second factor's primitives (TOTP, base32, recovery codes, the sealed row, the pending cookie, the
    // assurance and its cookie, step-up, the code limits), stated directly by the unit files: no PGlite,
    // SMTP or Chromium per mutant (two-factor-flows and two-factor-browser state the same end to end).
    mutate: [
      src("features/two-factor/base32.ts"),
      src("features/two-factor/totp.ts"),
      src("features/two-factor/recovery-codes.ts"),
      src("sign-in/second-factor-row.ts"),
      src("features/two-factor/record.ts"),
      src("features/two-factor/pending.ts"),
      src("session/assurance.ts"),
      src("session/assurance-cookie.ts"),
      src("session/recent-auth.ts"),
      src("rate-limit/two-factor.ts"),
    ],
    // The assurance's actor (an impersonation's admin) is stated by the admin's rule test.
    tests: [test("two-factor/totp.test.ts"), test("two-factor/two-factor-units.test.ts"), test("admin/impersonation-rule.test.ts")],
  },
  {
    name: "two-factor",
    // The second step, the settings, the routes and the page, through Auth() and auth.api on the in-memory
    // adapter (two-factor-fast.test.ts, half a second); two-factor-flows (PGlite, SMTP) and
    // two-factor-browser (Chromium) state the same end to end, too slowly to run per mutant.
    mutate: [
      src("features/two-factor/gate.ts"),
      src("features/two-factor/codes.ts"),
      src("features/two-factor/second-step.ts"),
      src("features/two-factor/settings.ts"),
      src("features/two-factor/routes.ts"),
      src("features/two-factor/page.ts"),
      src("sign-in/start-session.ts"),
      src("kernel/api-two-factor.ts"),
      src("pages/two-factor.tsx"),
    ],
    tests: [test("two-factor/two-factor-fast.test.ts")],
  },
  {
    name: "warnings",
    mutate: [src("warning-texts.ts")],
    // The texts load with the first warning (logger.ts), so warning-texts.test.ts loads the module in each test.
    tests: [test("logging/warning-texts.test.ts")],
  },
  {
    // The one place that decides "owner present" (issue 44): the rule's decision, its table, its presentations.
    name: "owner-present",
    mutate: [src("sign-in/owner-present.ts")],
    // The rule's refusal of an impersonated session is stated over the real table by the admin's test.
    tests: [test("sign-in/owner-present-rule.test.ts"), test("admin/impersonation-rule.test.ts")],
  },
  {
    name: "admin-impersonation",
    // What decides the limits of impersonation (issue 48): who may start one, for whom and for how long,
    // what stopping gives back, and how a session keeps its actor; in process on the in-memory adapter.
    mutate: [src("features/admin/impersonation.ts"), src("session/impersonation.ts")],
    tests: [test("admin/impersonation-rule.test.ts"), test("admin/impersonation-decisions.test.ts")],
  },
  {
    name: "organizations",
    // What decides membership, permission and policy (issue 46); the in-memory tests run per mutant.
    mutate: [
      src("features/organizations/permissions.ts"),
      src("features/organizations/access.ts"),
      src("features/organizations/organizations.ts"),
    ],
    tests: [
      test("organizations/rules.test.ts"),
      test("organizations/authorization.test.ts"),
      test("organizations/policy.test.ts"),
      test("organizations/organizations.test.ts"),
      test("organizations/api.test.ts"),
      test("organizations/decisions.test.ts"),
    ],
  },
  {
    name: "authorization-server",
    // The tokens, PKCE, redirect-URI matching and the code and refresh-family rules (issue 47). The token
    // endpoint runs in process (token-app.ts: Auth() on the in-memory store, codes, grants and device codes
    // put straight into it), the modules directly: milliseconds per mutant. attacks, openid-client,
    // lifecycle and versus-oidc-provider state the same over real HTTP with real clients (seconds per
    // mutant) and stay in `npm test` only.
    mutate: [
      src("features/authorization-server/tokens.ts"),
      src("features/authorization-server/pkce.ts"),
      src("features/authorization-server/redirect-uris.ts"),
      src("features/authorization-server/token.ts"),
      src("features/authorization-server/grants.ts"),
    ],
    tests: [
      test("authorization-server/pkce.test.ts"),
      test("authorization-server/redirect-uris.test.ts"),
      test("authorization-server/tokens.test.ts"),
      test("authorization-server/grants.test.ts"),
      test("authorization-server/token-endpoint.test.ts"),
      test("authorization-server/token-refresh.test.ts"),
      test("authorization-server/token-device.test.ts"),
    ],
  },
  {
    name: "api-keys",
    // The key format and checksum, the keyed hash, the verification (every refusal), its cache and the
    // start-up check (issue 48); fast tests: the pure modules directly and verification in process over
    // records written straight into the memory store (no sign-up). The slower feature tests
    // (keys, organizations, owner-present) cover the same files end to end but are not run per mutant.
    mutate: [
      src("crypto/key-format.ts"),
      src("crypto/key-hash.ts"),
      src("features/api-keys/key-hash.ts"),
      src("features/api-keys/verify.ts"),
      src("features/api-keys/cache.ts"),
      src("features/api-keys/config-check.ts"),
    ],
    tests: [test("api-keys/format.test.ts"), test("api-keys/verify.test.ts")],
  },
  {
    name: "admin",
    // Issue 48: who is an admin (asked of the store on every call; never from an impersonated session), what
    // an admin may not do to themselves or a peer, and whether a ban holds. decisions.test.ts drives them
    // directly; access.test.ts walks every admin route and auth.api method in process (a few seconds).
    mutate: [src("features/admin/access.ts"), src("features/admin/bans.ts")],
    tests: [test("admin/decisions.test.ts"), test("admin/access.test.ts")],
  },
  {
    name: "sso-saml",
    // Issue 49: the SAML response checks (shape, signature placement through node-saml, issuer, audience,
    // recipient, destination, times, NameID, the browser binding and the replay cache). The corpus signs
    // with xmlsec1 (tens of ms a response), so each mutant runs the response tests only (about 20 s).
    // dom, envelope and assertion-checks are also stated directly on parsed, unsigned documents
    // (milliseconds): every refusal's reason and the boundaries of each window.
    mutate: [
      src("features/sso/saml/response.ts"),
      src("features/sso/saml/assertion-checks.ts"),
      src("features/sso/saml/envelope.ts"),
      src("features/sso/saml/signature.ts"),
      src("features/sso/saml/dom.ts"),
    ],
    tests: [
      test("sso/saml/signature-step.test.ts"),
      test("sso/saml/dom.test.ts"),
      test("sso/saml/envelope.test.ts"),
      test("sso/saml/assertion-checks.test.ts"),
      test("sso/saml/accepted.test.ts"),
      test("sso/saml/signatures.test.ts"),
      test("sso/saml/conditions.test.ts"),
      test("sso/saml/binding.test.ts"),
      test("sso/saml/malformed.test.ts"),
    ],
  },
  {
    name: "sso-identity",
    // Issue 49: who an SSO sign-in is (identity.ts: the subject's checks, the user a first sign-in makes or
    // links by a proven address, the membership and its role, the session's assurance, the races).
    // identity-decisions.test.ts seeds the stores directly (no password sign-up, no DNS proof per test);
    // identity.test.ts states the same through sign-up and a real domain proof, ~1 s a test.
    mutate: [src("features/sso/identity.ts")],
    tests: [test("sso/identity-decisions.test.ts")],
  },
  {
    name: "sso-scim-patch",
    // Issue 49: SCIM PATCH (RFC 7644 §3.5.2) and its paths, pure modules: patch.test.ts applies a corpus of
    // Okta, Entra and RFC operations beside scim-patch as the oracle, and every refusal with its scimType.
    // patch-operations.test.ts and patch-path.test.ts state exact results and each refusal's detail where
    // the corpus does not reach.
    mutate: [src("features/sso/scim/patch.ts"), src("features/sso/scim/patch-path.ts")],
    tests: [test("sso/scim/patch.test.ts"), test("sso/scim/patch-operations.test.ts"), test("sso/scim/patch-path.test.ts")],
  },
];

/** The group named by `MUTATION_GROUP`; throws for an unknown or missing name. */
export function currentGroup() {
  const name = process.env.MUTATION_GROUP;
  const group = mutationGroups.find((g) => g.name === name);
  if (!group) throw new Error(`MUTATION_GROUP must be one of ${mutationGroups.map((g) => g.name).join(", ")} (got ${name})`);
  return group;
}
