/**
 * Load test (issue 13, part 3): `Auth()` over node:http with database sessions on the shared PostgreSQL
 * server, in a database of its own. 500 distinct users sign in through the real CSRF flow (50 sign-ins in
 * flight at a time), then 5,000 session checks (10 per user, 100 in flight at a time, over keep-alive
 * connections). Every answer must be the expected one, and the database must hold exactly 500 users and
 * 500 sessions, without duplicates. Latencies are recorded in test-artifacts/reliability.json, not
 * asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAnswers } from "../packages/hosted-db-adapter/test/helpers.js";
import { type AuthApp, startAuthApp, USER_PASSWORD, userEmail } from "./helpers/auth-app.js";
import { recordFigures } from "./helpers/figures.js";
import { type HttpAnswer, HttpTarget, Visitor } from "./helpers/http-client.js";
import { runBounded, summarize, timed } from "./helpers/measure.js";
import { createScratchDatabase, type ScratchDatabase, SHARED_SERVER_URL } from "./helpers/scratch-database.js";

const USERS = 500;
const CHECKS_PER_USER = 10;
const SIGN_INS_IN_FLIGHT = 50;
const CHECKS_IN_FLIGHT = 100;
/** A guard against a hang, far above any expected latency; answers past it count as errors. */
const DEADLINE_MILLIS = 60_000;

const available = await postgresAnswers(SHARED_SERVER_URL, "the load test");

let database: ScratchDatabase;
let app: AuthApp;
let target: HttpTarget;
const visitors: Visitor[] = [];
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  if (!available) return;
  database = await createScratchDatabase();
  app = await startAuthApp({ databaseURL: database.url });
  await app.seedUsers(0, USERS);
  target = new HttpTarget(app.server.origin, { maxSockets: CHECKS_IN_FLIGHT, deadlineMillis: DEADLINE_MILLIS });
});

afterAll(async () => {
  target?.close();
  await app?.close();
  await database?.drop();
});

/** What went wrong with an answer, or undefined when it is what the step expects. */
function problem(answer: HttpAnswer | undefined, expected: (answer: HttpAnswer) => boolean): string | undefined {
  if (!answer) return "no request (an earlier step failed)";
  if (answer.timedOut) return `${answer.method} ${answer.path}: no answer within ${DEADLINE_MILLIS} ms`;
  if (answer.networkError) return `${answer.method} ${answer.path}: ${answer.networkError}`;
  return expected(answer) ? undefined : `${answer.method} ${answer.path}: ${answer.status} ${answer.location ?? answer.body.slice(0, 200)}`;
}

describe.skipIf(!available)(`${USERS} users sign in, then ${USERS * CHECKS_PER_USER} session checks`, () => {
  it(`${USERS} concurrent sign-ins: every one succeeds, leaving exactly ${USERS} users and ${USERS} sessions`, async () => {
    const indexes = Array.from({ length: USERS }, (_, i) => i);
    const { result, wallMillis } = await timed(() =>
      runBounded(indexes, SIGN_INS_IN_FLIGHT, async (index) => {
        const visitor = new Visitor(target);
        visitors[index] = visitor;
        return visitor.signIn(userEmail(index), USER_PASSWORD);
      }),
    );
    const home = `${app.server.origin}/home`;
    const errors = result.flatMap(({ csrf, callback }) =>
      [problem(csrf, (a) => a.status === 200), problem(callback, (a) => a.status === 302 && a.location === home)].filter(
        (p): p is string => p !== undefined,
      ),
    );
    const withoutCookie = visitors.filter((visitor) => !visitor.sessionToken).length;
    const counts = await app.counts();
    figures.signIn = {
      users: USERS,
      inFlight: SIGN_INS_IN_FLIGHT,
      errors: errors.length,
      withoutSessionCookie: withoutCookie,
      callback: summarize(
        result.flatMap(({ callback }) => (callback ? [callback.millis] : [])),
        wallMillis,
      ),
      csrf: summarize(
        result.map(({ csrf }) => csrf.millis),
        wallMillis,
      ),
      countsAfter: counts,
    };
    expect(errors.slice(0, 5)).toEqual([]);
    expect(withoutCookie).toBe(0);
    expect(new Set(visitors.map((visitor) => visitor.sessionToken)).size).toBe(USERS);
    expect(counts).toEqual({
      users: USERS,
      distinctUserIds: USERS,
      distinctUserEmails: USERS,
      sessions: USERS,
      distinctSessionTokens: USERS,
      sessionsUserLinks: USERS,
    });
    expect(app.loggedErrors).toEqual([]);
  });

  it(`${USERS * CHECKS_PER_USER} concurrent session checks: each returns its own user`, async () => {
    expect(visitors.filter(Boolean)).toHaveLength(USERS);
    // Users interleaved: check k goes to user k mod 500, so neighbours in flight are different users.
    const checks = Array.from({ length: USERS * CHECKS_PER_USER }, (_, k) => k % USERS);
    const { result, wallMillis } = await timed(() =>
      runBounded(checks, CHECKS_IN_FLIGHT, async (index) => ({ index, answer: await (visitors[index] as Visitor).session() })),
    );
    const errors = result
      .map(({ index, answer }) =>
        problem(answer, (a) => {
          if (a.status !== 200) return false;
          const session = JSON.parse(a.body) as { user?: { email?: string } } | null;
          return session?.user?.email === userEmail(index);
        }),
      )
      .filter((p): p is string => p !== undefined);
    const counts = await app.counts();
    figures.sessionCheck = {
      checks: checks.length,
      inFlight: CHECKS_IN_FLIGHT,
      errors: errors.length,
      latency: summarize(
        result.map(({ answer }) => answer.millis),
        wallMillis,
      ),
      countsAfter: counts,
    };
    recordFigures("load", figures);
    expect(errors.slice(0, 5)).toEqual([]);
    expect(errors).toHaveLength(0);
    expect(counts.users).toBe(USERS);
    expect(counts.sessions).toBe(USERS);
    expect(counts.distinctSessionTokens).toBe(USERS);
    expect(app.loggedErrors).toEqual([]);
  });
});
