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
    name: "crypto",
    // compare.ts is in the http group. crypto-behaviour.test.ts and jwe-behaviour.test.ts state every module's behaviour cheaply
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
    tests: [test("crypto-behaviour.test.ts"), test("jwe-behaviour.test.ts"), test("digest.test.ts")],
  },
];

/** The group named by `MUTATION_GROUP`; throws for an unknown or missing name. */
export function currentGroup() {
  const name = process.env.MUTATION_GROUP;
  const group = mutationGroups.find((g) => g.name === name);
  if (!group) throw new Error(`MUTATION_GROUP must be one of ${mutationGroups.map((g) => g.name).join(", ")} (got ${name})`);
  return group;
}
