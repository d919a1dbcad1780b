/**
 * Fault test (issue 13, part 4): the PostgreSQL server under `Auth()` fails while requests keep coming.
 * A throwaway cluster of the test's own (never the shared server) is
 *
 * 1. crashed (`pg_ctl stop -m immediate`: connections refused) and started again on the same port and
 *    data, then
 * 2. frozen (SIGSTOP on every process: connections accepted, nothing answered, like a hung host) for
 *    longer than the client's statement timeout, then let go,
 *
 * while 12 lanes of requests run without pause: session checks of users signed in before the outage,
 * sign-ins of fresh users, sign-outs of sessions made during the run. Every request must get a clean
 * answer within the client's deadline: a session check 200 with its user or `null`; a sign-in a redirect
 * home or to an error page; a sign-out a redirect; never a 5xx, a stack trace, a hang, or an unhandled
 * rejection. Afterwards every session made before the outage, and every one whose sign-in succeeded
 * during it (and was not signed out), is valid again, and no user or session row was lost.
 *
 * The app uses `HostedDbClient`'s default timeouts (connect 5 s, statement 10 s).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthApp, startAuthApp, USER_PASSWORD, userEmail } from "./helpers/auth-app.js";
import { recordFigures } from "./helpers/figures.js";
import { type HttpAnswer, HttpTarget, SESSION_COOKIE, Visitor } from "./helpers/http-client.js";
import { runBounded, summarize } from "./helpers/measure.js";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "./helpers/throwaway-postgres.js";

/** Users signed in before the outage; their sessions must survive it. */
const EARLY_USERS = 40;
/** Fresh users for the sign-ins during the run (each signs in once). */
const RUN_USERS = 1500;
const LANES = 12;
/**
 * The client's deadline per request. The longest clean answer during the freeze is a sign-in that passed
 * one statement just before it and then waits out the 10 s statement timeout on the next.
 */
const DEADLINE_MILLIS = 30_000;

type Phase = "before" | "crashed" | "restarted" | "frozen" | "thawed";
type Kind = "session" | "signIn" | "signOut";
/** How a request ended: the expected kinds of answer, or `bad` with the reason. */
type Outcome = "user" | "null" | "signedIn" | "errorPage" | "signedOut" | "bad";

interface Outcomed {
  phase: Phase;
  kind: Kind;
  outcome: Outcome;
  millis: number;
  problem?: string;
}

const hasPostgres = postgresBinDir() !== undefined;

describe.skipIf(!hasPostgres)("PostgreSQL crashes, restarts, freezes and thaws under load", () => {
  let postgres: ThrowawayPostgres;
  let app: AuthApp;
  let target: HttpTarget;
  const unhandled: string[] = [];
  function describeFailure(kind: string, reason: unknown): string {
    return `${kind}: ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`;
  }
  function onRejection(reason: unknown): void {
    unhandled.push(describeFailure("unhandledRejection", reason));
  }
  function onException(error: unknown): void {
    unhandled.push(describeFailure("uncaughtException", error));
  }

  beforeAll(async () => {
    process.on("unhandledRejection", onRejection);
    process.on("uncaughtException", onException);
    postgres = await startThrowawayPostgres();
    app = await startAuthApp({ databaseURL: postgres.url });
    await app.seedUsers(0, EARLY_USERS + RUN_USERS);
    target = new HttpTarget(app.server.origin, { maxSockets: 64, deadlineMillis: DEADLINE_MILLIS });
  });

  afterAll(async () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
    target?.close();
    await app?.close();
    await postgres?.destroy();
  });

  it("answers every request cleanly in bounded time, and loses no session or user", async () => {
    const origin = app.server.origin;
    const home = `${origin}/home`;
    const early = Array.from({ length: EARLY_USERS }, () => new Visitor(target));
    await runBounded(early, 10, async (visitor, index) => {
      const { callback } = await visitor.signIn(userEmail(index), USER_PASSWORD);
      expect(callback?.location).toBe(home);
    });
    const earlyTokens = early.map((visitor) => visitor.sessionToken as string);
    const before = await app.counts();
    expect(before).toMatchObject({ users: EARLY_USERS + RUN_USERS, sessions: EARLY_USERS });

    let phase: Phase = "before";
    let running = true;
    let nextRunUser = EARLY_USERS;
    const signedIn: Array<{ visitor: Visitor; index: number }> = [];
    const signedOut = new Set<Visitor>();
    /** The query strings of the error pages sign-ins ended on. */
    const errorPages = new Set<string>();
    const results: Outcomed[] = [];

    /** Classifies an answer; `expected` maps a well-formed answer to its outcome (undefined: bad). */
    function judge(kind: Kind, started: Phase, answer: HttpAnswer, expected: (a: HttpAnswer) => Outcome | undefined): Outcome {
      let problem: string | undefined;
      let outcome: Outcome | undefined;
      if (answer.timedOut) problem = `no answer within ${DEADLINE_MILLIS} ms`;
      else if (answer.networkError) problem = `connection failed: ${answer.networkError}`;
      else if (answer.status >= 500) problem = `status ${answer.status}`;
      else if (/^\s+at .+:\d+:\d+\)?$/m.test(answer.body) || /\b\w*Error:/.test(answer.body)) problem = "error internals in the body";
      else {
        outcome = expected(answer);
        if (!outcome) problem = `unexpected answer ${answer.status} ${answer.location ?? answer.body.slice(0, 120)}`;
      }
      const result: Outcomed = { phase: started, kind, outcome: outcome ?? "bad", millis: answer.millis };
      if (problem) result.problem = `${answer.method} ${answer.path} (${started}): ${problem}`;
      results.push(result);
      return result.outcome;
    }

    function errorPage(location: string | null): boolean {
      return (
        location !== null && (location.startsWith(`${origin}/auth/error?error=`) || location.startsWith(`${origin}/auth/signin?error=`))
      );
    }

    async function checkSession(started: Phase, visitor: Visitor, index: number): Promise<void> {
      judge("session", started, await visitor.session(), (a) => {
        if (a.status !== 200) return undefined;
        const session = JSON.parse(a.body) as { user?: { email?: string } } | null;
        if (session === null) return "null";
        return session.user?.email === userEmail(index) ? "user" : undefined;
      });
    }

    async function signInFresh(started: Phase): Promise<void> {
      const index = nextRunUser++;
      if (index >= EARLY_USERS + RUN_USERS) return;
      const visitor = new Visitor(target);
      const { csrf, callback } = await visitor.signIn(userEmail(index), USER_PASSWORD);
      if (!callback) {
        judge("signIn", started, csrf, () => undefined);
        return;
      }
      const outcome = judge("signIn", started, callback, (a) => {
        if (a.status !== 302) return undefined;
        if (a.location === home) return visitor.sessionToken ? "signedIn" : undefined;
        return errorPage(a.location) ? "errorPage" : undefined;
      });
      if (outcome === "errorPage") errorPages.add(new URL(callback.location as string).search);
      if (outcome === "signedIn") signedIn.push({ visitor, index });
    }

    async function signOutOne(started: Phase): Promise<void> {
      const candidate = signedIn.find(({ visitor }) => !signedOut.has(visitor));
      if (!candidate) return;
      signedOut.add(candidate.visitor);
      const { csrf, signout } = await candidate.visitor.signOut();
      if (!signout) {
        // The CSRF step answered, but not with a token: judged (and reported) as a bad answer.
        judge("signOut", started, csrf, () => undefined);
        return;
      }
      judge("signOut", started, signout, (a) => (a.status === 302 && a.location === `${origin}/bye` ? "signedOut" : undefined));
    }

    async function lane(number: number): Promise<void> {
      for (let step = number; running; step++) {
        const started = phase;
        const which = step % 4;
        if (which === 2) await signInFresh(started);
        else if (which === 3 && step % 8 === 3) await signOutOne(started);
        else {
          const index = step % EARLY_USERS;
          await checkSession(started, early[index] as Visitor, index);
        }
      }
    }

    const lanes = Promise.all(Array.from({ length: LANES }, (_, number) => lane(number)));
    await sleep(1500);
    phase = "crashed";
    await postgres.crash();
    await sleep(3000);
    phase = "restarted";
    await postgres.start();
    await sleep(2500);
    phase = "frozen";
    postgres.freeze();
    // Longer than the 10 s statement timeout, so requests waiting on the frozen server run into it.
    await sleep(13_000);
    phase = "thawed";
    postgres.thaw();
    await sleep(3000);
    running = false;
    await lanes;

    // After the outage: every session made before it, and every one made during the run and not
    // signed out, is valid again (the visitor's cookie was never cleared by a failed check).
    const survivors = [
      ...early.map((visitor, index) => ({ visitor, index })),
      ...signedIn.filter(({ visitor }) => !signedOut.has(visitor)),
    ];
    const afterwards = await runBounded(survivors, 10, async ({ visitor, index }) => {
      const answer = await visitor.session();
      const session = answer.status === 200 ? (JSON.parse(answer.body) as { user?: { email?: string } } | null) : null;
      return session?.user?.email === userEmail(index) ? undefined : `${userEmail(index)}: ${answer.status} ${answer.body.slice(0, 120)}`;
    });
    const lost = afterwards.filter((problem): problem is string => problem !== undefined);
    const after = await app.counts();
    const stored = await app.client.query<{ found: string }>(
      `SELECT count(*) AS found FROM ${app.client.db.authlib_sessions.sqlName} WHERE "sessionToken" = ANY($1)`,
      [earlyTokens],
    );

    const phases: Phase[] = ["before", "crashed", "restarted", "frozen", "thawed"];
    const byPhase = Object.fromEntries(
      phases.map((p) => {
        const inPhase = results.filter((r) => r.phase === p);
        const outcomes: Record<string, number> = {};
        for (const r of inPhase) outcomes[`${r.kind}:${r.outcome}`] = (outcomes[`${r.kind}:${r.outcome}`] ?? 0) + 1;
        const latency = summarize(
          inPhase.map((r) => r.millis),
          1,
        );
        return [p, { requests: inPhase.length, outcomes, p50: latency.p50, p99: latency.p99, max: latency.max }];
      }),
    );
    const loggedErrors: Record<string, number> = {};
    for (const name of app.loggedErrors) loggedErrors[name] = (loggedErrors[name] ?? 0) + 1;
    const problems = results.flatMap((r) => (r.problem ? [r.problem] : []));
    recordFigures("fault", {
      deadlineMillis: DEADLINE_MILLIS,
      lanes: LANES,
      requests: results.length,
      badAnswers: problems.length,
      timedOut: results.filter((r) => r.problem?.includes("no answer within")).length,
      unhandled,
      byPhase,
      signInErrorPages: [...errorPages],
      loggedErrors,
      sessionsValidAfterwards: `${survivors.length - lost.length}/${survivors.length}`,
      countsBefore: before,
      countsAfter: after,
    });

    expect(problems.slice(0, 10)).toEqual([]);
    expect(unhandled).toEqual([]);
    // The outage was real: requests during the crash and during the freeze saw it (and answered cleanly).
    for (const p of ["crashed", "frozen"] as const) {
      expect(
        results.some((r) => r.phase === p && (r.outcome === "null" || r.outcome === "errorPage")),
        p,
      ).toBe(true);
    }
    // And requests around it worked.
    for (const p of ["before", "restarted", "thawed"] as const) {
      expect(
        results.some((r) => r.phase === p && (r.outcome === "user" || r.outcome === "signedIn")),
        p,
      ).toBe(true);
    }
    expect(lost).toEqual([]);
    expect(Number(stored.rows[0]?.found)).toBe(EARLY_USERS);
    expect(early.every((visitor, index) => visitor.jar.get(SESSION_COOKIE) === earlyTokens[index])).toBe(true);
    expect(after.users).toBe(EARLY_USERS + RUN_USERS);
    expect(after.distinctUserIds).toBe(after.users);
    expect(after.distinctUserEmails).toBe(after.users);
    expect(after.distinctSessionTokens).toBe(after.sessions);
    // Sign-outs end sessions; sign-ins that succeeded add them; nothing else removes one.
    expect(after.sessions).toBeGreaterThanOrEqual(EARLY_USERS + signedIn.length - signedOut.size);
  });
});
