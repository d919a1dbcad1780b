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
      test("auth-flow.test.ts"),
      test("csrf.test.ts"),
      test("redirect.test.ts"),
      test("cookie-chunks.test.ts"),
      test("compare.test.ts"),
    ],
  },
  {
    name: "jwt",
    mutate: [src("jwt.ts")],
    tests: [test("jwt.test.ts"), test("jwt-fast-path.test.ts")],
  },
  {
    name: "email",
    mutate: [src("email/normalize.ts"), src("actions/email.ts")],
    tests: [test("email-signin.test.ts")],
  },
  {
    name: "oauth",
    mutate: [src("oauth/checks.ts")],
    tests: [test("oauth/checks.test.ts"), test("oauth/units.test.ts")],
  },
  {
    name: "linking",
    mutate: [src("actions/link-account.ts")],
    // planted-cookies.test.ts owns the explicit-link rules (link=true, signed in as another user).
    tests: [test("oauth-auth.test.ts"), test("planted-cookies.test.ts")],
  },
  {
    name: "callback",
    mutate: [
      src("oauth/callback.ts"),
      src("actions/callback.ts"),
      src("actions/webauthn.ts"),
      src("actions/unproven-email.ts"),
    ],
    // No OpenID Provider or Chromium here: the fake provider (oauth/fake-server.ts), the soft authenticator
    // and the in-memory adapters keep each mutant's run short.
    tests: [
      test("oauth/callback-negatives.test.ts"),
      test("oauth/hostile-provider.test.ts"),
      test("oauth/fake-endpoints.test.ts"),
      test("oauth-auth.test.ts"),
      test("webauthn/passkey-negative.test.ts"),
      test("unproven-email-behaviour.test.ts"),
      test("callback-route-behaviour.test.ts"),
      test("oauth/callback-behaviour.test.ts"),
      test("webauthn/passkey-callback-behaviour.test.ts"),
    ],
  },
];

/** The group named by `MUTATION_GROUP`; throws for an unknown or missing name. */
export function currentGroup() {
  const name = process.env.MUTATION_GROUP;
  const group = mutationGroups.find((g) => g.name === name);
  if (!group) throw new Error(`MUTATION_GROUP must be one of ${mutationGroups.map((g) => g.name).join(", ")} (got ${name})`);
  return group;
}
