// Does a Password() request tell whether an address has an account? Issue 28's acceptance: sign-up, reset
// request and sign-in answer the same for known and unknown addresses, in answers and, measured
// interleaved, in time within noise. One app (the built packages: `Password()` + `Nodemailer` on
// `@authlib/hosted-db-adapter` over an in-memory PGlite, JWT sessions), a real SMTP server on 127.0.0.1 (a
// child process: bench/smtp-sink.mjs), requests through `createAuth(config).handler` as a server hands them
// over. Each operation alternates slices of requests for known addresses (a proven user with a password)
// and for unknown ones (no user), the side that goes first alternating every round; every request uses an
// address of its own (nothing is cached per address), and a fresh CSRF cookie and token, made before its
// slice. Every answer is compared with the first one (status, Location, Set-Cookie names, header names,
// body) and every mail with what its side should get: a difference exits non-zero. No timing is asserted.
// Part of `npm run bench`; also runs alone (about 1–1.5 minutes on 2 cores; needs the built packages):
//   node bench/password-enumeration.mjs [--quick]      (--quick, or AUTHLIB_BENCH_QUICK=1: a few requests, for the smoke test)
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { createAuth } from "@authlib/core";
import { hashPassword } from "@authlib/core/password";
import Nodemailer from "@authlib/core/providers/nodemailer";
import Password from "@authlib/core/providers/password";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";
import { PGlite } from "@electric-sql/pglite";
import { commit, machine } from "./environment.mjs";
import { median } from "./harness.mjs";
import { startSmtpSink } from "./smtp-sink.mjs";

const SECRET = "bench-secret-0123456789abcdef0123456789";
const ORIGIN = "http://localhost:3000";
const HOST = new URL(ORIGIN).host;
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
/** The known users' password; sign-in sends another one, so both sides are refused. */
const OWNER_PASSWORD = "owner password 1";
const TRIED_PASSWORD = "someone else's guess";

/**
 * The three operations. `form` is what the browser posts besides the CSRF token; `location` the answer
 * both sides must get; `mail` the subject each side's address is sent (`null`: no mail).
 */
/** The placeholder of the address a form gets back in its page's URL (`email=`): the caller's own input. */
const TYPED = "{typed}";

export const OPERATIONS = [
  {
    name: "sign-up",
    path: "/auth/password/sign-up",
    form: (email) => ({ email, password: "a new password 2", name: "Bench", callbackUrl: "/home" }),
    location: `${ORIGIN}/auth/verify-request?provider=password&type=password-sign-up`,
    mail: { known: `You already have an account on ${HOST}`, unknown: `Confirm your email address for ${HOST}` },
  },
  {
    name: "reset request",
    path: "/auth/password/forgot",
    form: (email) => ({ email, callbackUrl: "/home" }),
    location: `${ORIGIN}/auth/verify-request?provider=password&type=password-reset`,
    mail: { known: `Reset your password for ${HOST}`, unknown: `Password reset for ${HOST}` },
  },
  {
    name: "sign-in",
    path: "/auth/callback/password",
    form: (email) => ({ email, password: TRIED_PASSWORD, callbackUrl: "/home" }),
    // The refused form's page, with the address typed (the caller's own input) to show in it again.
    location: `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials&provider=password&email=${encodeURIComponent(TYPED)}`,
    mail: null,
  },
];

/**
 * How much each run measures: per operation, `rounds` slices per side of `slice[name]` requests each, after
 * `warmup` requests of each side. Sized for about 20 s per operation on 2 cores: a request that hashes
 * costs one scrypt (~100 ms), one that mails waits ~145 ms for the SMTP server (smtp-server pauses 100 ms
 * before its greeting, to catch clients that talk too soon, and acknowledges the data ~40 ms later).
 */
export const FULL = { rounds: 16, slice: { "sign-up": 3, "reset request": 4, "sign-in": 5 }, warmup: 2 };
export const QUICK = { rounds: 2, slice: { "sign-up": 1, "reset request": 1, "sign-in": 1 }, warmup: 1 };

/** Addresses of the same length on both sides: `k000042@example.com` has an account, `u000042@…` none. */
const address = (kind, i) => `${kind === "known" ? "k" : "u"}${String(i).padStart(6, "0")}@example.com`;

/** The cookies a response sets, as one Cookie header value. */
function cookieHeader(response) {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/**
 * `location` with the address the caller typed (`email=`, a refused sign-in form's way back) as a
 * placeholder: it is the request's own input echoed to its own browser, the same for a known and an unknown
 * address. Any other address there stays, and differs.
 */
function withTypedAddress(location, email) {
  if (!location) return location;
  const url = new URL(location);
  if (url.searchParams.get("email") === email) url.searchParams.set("email", TYPED);
  return url.href;
}

/** What a caller sees of an answer to a request for `email`, as one comparable string. */
async function answerOf(response, email) {
  return JSON.stringify({
    status: response.status,
    location: withTypedAddress(response.headers.get("location"), email),
    cookies: response.headers.getSetCookie().map((c) => c.slice(0, c.indexOf("="))),
    headers: [...response.headers.keys()].sort(),
    body: await response.text(),
  });
}

/** Quantile `q` (0..1) of a non-empty list, interpolated between the two nearest values. */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low);
}

/**
 * The app: PGlite (in memory) with `users` proven users, each with a password account holding the same
 * scrypt hash (a verification costs the same whatever the hash), an SMTP sink, `createAuth` with
 * `rateLimit: false`. `queries` counts the SQL statements the adapter runs.
 */
async function startApp(users, log) {
  const sink = await startSmtpSink();
  const pglite = new PGlite();
  const counter = { queries: 0 };
  const client = new HostedDbClient({ pglite, branch: "bench", onQuery: () => counter.queries++ });
  await client.migrate();
  const adapter = HostedDbAdapter(client);
  log(`  seeding ${users.toLocaleString("en")} users with a password…`);
  const hash = await hashPassword(OWNER_PASSWORD);
  for (let i = 0; i < users; i++) {
    const id = crypto.randomUUID();
    await adapter.createUser({ id, email: address("known", i), emailVerified: new Date(), name: `User ${i}` });
    await adapter.linkAccount({ provider: "password", providerAccountId: id, userId: id, type: "credentials", access_token: hash });
  }
  const logged = new Map();
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "jwt" },
    providers: [Nodemailer({ server: sink.transport, from: "Bench <no-reply@bench.test>" }), Password()],
    // Every request of the run comes from one client: limits would refuse most of them.
    rateLimit: false,
    // Refused sign-ins are logged (CredentialsSignin), the same on both sides; counted, not printed.
    logger: {
      error: (error) => logged.set(error.name, (logged.get(error.name) ?? 0) + 1),
      warn: () => {},
    },
  };
  const auth = createAuth(config);
  const close = async () => {
    await client.close();
    await pglite.close();
    await sink.close();
  };
  return { auth, sink, counter, logged, close };
}

/** A POST of `operation` for `email` from a browser of its own (fresh CSRF cookie and token). */
async function requestOf(auth, operation, email) {
  const csrf = await auth.handler(new Request(`${ORIGIN}/auth/csrf`));
  const { csrfToken } = await csrf.json();
  return new Request(`${ORIGIN}${operation.path}`, {
    method: "POST",
    headers: { cookie: cookieHeader(csrf), origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: new URLSearchParams({ csrfToken, ...operation.form(email) }),
  });
}

/**
 * Measures one operation: warm-up, then `rounds` rounds of one slice per side, the side going first
 * alternating. A slice's requests are built first; then each is sent and awaited in turn, timed from the
 * call to the `Response`. The process's CPU time and the SQL statements are counted over the slice; its
 * answers and its mails are checked after it. Returns per side the latencies (ms, by round), CPU µs,
 * statements and mail bytes, and the differences found.
 */
async function measureOperation(app, operation, plan, next) {
  const size = plan.slice[operation.name];
  const sides = ["known", "unknown"].map((kind) => ({ kind, rounds: [], cpuRounds: [], queries: 0, mailBytes: 0, mails: 0, requests: 0 }));
  const differences = [];
  let reference;

  async function runSlice(side, count, measured) {
    const emails = Array.from({ length: count }, () => address(side.kind, next[side.kind]++));
    const requests = [];
    for (const email of emails) requests.push(await requestOf(app.auth, operation, email));
    const responses = [];
    const latencies = [];
    const queries = app.counter.queries;
    const cpu = process.cpuUsage();
    for (const request of requests) {
      const start = performance.now();
      const response = await app.auth.handler(request);
      latencies.push(performance.now() - start);
      responses.push(response);
    }
    const { user, system } = process.cpuUsage(cpu);
    for (const [i, response] of responses.entries()) {
      const answer = await answerOf(response, emails[i]);
      reference ??= answer;
      if (answer !== reference) differences.push(`${side.kind} ${emails[i]}: ${answer} (first answer: ${reference})`);
    }
    const mails = await app.sink.take();
    checkMails(side, emails, mails, differences);
    if (!measured) return;
    side.rounds.push(latencies);
    side.cpuRounds.push((user + system) / count);
    side.queries += app.counter.queries - queries;
    side.mails += mails.length;
    side.mailBytes += mails.reduce((sum, mail) => sum + mail.bytes, 0);
    side.requests += count;
  }

  function checkMails(side, emails, mails, found) {
    const expected = operation.mail ? emails.map((email) => ({ to: email, subject: operation.mail[side.kind] })) : [];
    const got = mails.map((mail) => ({ to: mail.to.join(","), subject: mail.subject }));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      found.push(`${side.kind} mails: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    }
  }

  const [known, unknown] = sides;
  // The first answer is the unknown side's; it must be the one this operation is for, or the set-up is broken.
  await runSlice(unknown, 1, false);
  const first = JSON.parse(reference);
  if (first.status !== 302 || first.location !== operation.location) {
    throw new Error(`bench setup: ${operation.name} answered ${reference}, not a redirect to ${operation.location}`);
  }
  for (let i = 0; i < plan.warmup; i++) {
    await runSlice(known, 1, false);
    await runSlice(unknown, 1, false);
  }
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? [known, unknown] : [unknown, known];
    for (const side of order) await runSlice(side, size, true);
  }
  return { operation, sides, differences, answer: first };
}

/** The median of `rounds` (lists of numbers) taken together. */
function medianOfRounds(rounds) {
  const values = Float64Array.from(rounds.flat()).sort();
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/** Relabellings tried when 2^rounds is more than this: a sample of that many (seeded, so a run repeats). */
const RELABELLINGS = 65_536;

/**
 * The noise of a known / unknown ratio, by relabelling: the two slices of each round swap sides or not,
 * in every combination (2^rounds; a seeded sample of {@link RELABELLINGS} beyond that), and each time
 * `figure(known-labelled rounds) / figure(unknown-labelled rounds)` is computed. That is how far from 1
 * the ratio lands when both sides are the same kind by construction; rounds stay whole, so slow drift of
 * the machine cancels as it does in the real comparison. Returns `band`, the 95th percentile of
 * |ratio − 1| over the relabellings (as the larger of its two directions: ±), and `p`, the share of
 * relabellings at least as far from 1 as the real one (log scale). `NaN` for both with fewer than 4 rounds.
 */
export function relabellingNoise(known, unknown, figure) {
  const rounds = known.length;
  if (rounds < 4 || unknown.length !== rounds) return { band: Number.NaN, p: Number.NaN };
  const observed = Math.abs(Math.log(figure(known) / figure(unknown)));
  const total = 2 ** rounds;
  const tries = Math.min(total, RELABELLINGS);
  let seed = 0x9e3779b9;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const distances = new Float64Array(tries);
  let asFar = 0;
  for (let i = 0; i < tries; i++) {
    const mask = total === tries ? i : Math.floor(random() * total);
    const a = [];
    const b = [];
    for (let r = 0; r < rounds; r++) {
      const swapped = Math.floor(mask / 2 ** r) % 2 === 1;
      a.push(swapped ? unknown[r] : known[r]);
      b.push(swapped ? known[r] : unknown[r]);
    }
    distances[i] = Math.abs(Math.log(figure(a) / figure(b)));
    if (distances[i] >= observed - 1e-12) asFar++;
  }
  distances.sort();
  return { band: Math.exp(distances[Math.min(tries - 1, Math.floor(0.95 * tries))]) - 1, p: asFar / tries };
}

/**
 * A row of the results. Time: the median and quartiles of every measured request of a side. CPU: the
 * median over a side's slices of the process's CPU time per request. Each ratio known / unknown comes with
 * its noise band and p ({@link relabellingNoise}) and is "within noise" when |ratio − 1| is inside the band.
 */
function rowOf({ operation, sides, differences, answer }) {
  const figures = sides.map((side) => {
    const all = side.rounds.flat();
    return {
      median: median(all),
      q1: quantile(all, 0.25),
      q3: quantile(all, 0.75),
      cpu: median(side.cpuRounds),
      queries: side.queries / side.requests,
      mails: side.mails / side.requests,
      mailBytes: side.mails ? side.mailBytes / side.mails : 0,
      requests: side.requests,
    };
  });
  const [known, unknown] = figures;
  const verdict = (ratio, { band, p }) => ({ ratio, band, p, within: Math.abs(Math.log(ratio)) <= Math.log(1 + band) });
  const cpuRounds = sides.map((side) => side.cpuRounds.map((value) => [value]));
  return {
    operation: operation.name,
    path: operation.path,
    known,
    unknown,
    time: verdict(known.median / unknown.median, relabellingNoise(sides[0].rounds, sides[1].rounds, medianOfRounds)),
    cpu: verdict(known.cpu / unknown.cpu, relabellingNoise(cpuRounds[0], cpuRounds[1], medianOfRounds)),
    differences,
    answer,
  };
}

/**
 * Runs the whole measurement: starts the app, measures each of {@link OPERATIONS} (in order), closes
 * everything. Returns the rows, the error types the app logged, and the plan.
 *
 * @param {{ plan?: typeof FULL, log?: (line: string) => void }} [options]
 */
export async function passwordEnumeration({ plan = FULL, log = () => {} } = {}) {
  const perOperation = (operation) => 1 + plan.warmup + plan.rounds * plan.slice[operation.name];
  // Each request of an operation has an address of its own; the operations change no account (sign-up
  // stores nothing before the link is followed, reset requests store nothing, refused sign-ins count
  // nothing with limits off), so they reuse the same addresses. One more known user for the seed check.
  const users = Math.max(...OPERATIONS.map(perOperation)) + 2;
  const load = { before: loadavg()[0] };
  const app = await startApp(users, log);
  try {
    await checkSeededUser(app, users - 1);
    const rows = [];
    for (const operation of OPERATIONS) {
      log(`  ${operation.name}: ${plan.rounds} rounds of ${plan.slice[operation.name]} requests per side…`);
      const row = rowOf(await measureOperation(app, operation, plan, { known: 0, unknown: 0 }));
      log(
        `    known / unknown: time ${row.time.ratio.toFixed(3)}x (noise ±${(row.time.band * 100).toFixed(1)} %), CPU ${row.cpu.ratio.toFixed(3)}x (noise ±${(row.cpu.band * 100).toFixed(1)} %)`,
      );
      rows.push(row);
    }
    load.after = loadavg()[0];
    return { rows, logged: Object.fromEntries(app.logged), plan, users, load };
  } finally {
    await app.close();
  }
}

/** The seeded rows are what sign-in reads: the last seeded user signs in with the password (and is then left out). */
async function checkSeededUser(app, i) {
  const operation = OPERATIONS.find((o) => o.name === "sign-in");
  const request = await requestOf(
    app.auth,
    { ...operation, form: (email) => ({ email, password: OWNER_PASSWORD, callbackUrl: "/home" }) },
    address("known", i),
  );
  const response = await app.auth.handler(request);
  const signedIn = response.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token="));
  if (response.headers.get("location") !== `${ORIGIN}/home` || !signedIn) {
    throw new Error(`bench setup: a seeded user could not sign in (${response.status} ${response.headers.get("location")})`);
  }
}

const ms = (value) => value.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = (value, digits = 0) => value.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percent = (value) => `${value >= 0 ? "+" : "−"}${Math.abs(value * 100).toFixed(1)} %`;

/** True when every answer and every mail was as it should be. */
export const answersIdentical = (result) => result.rows.every((row) => row.differences.length === 0);

/**
 * The result as Markdown: a table of time (per operation: requests per side, median and interquartile
 * range of each side, known / unknown, its noise band and p, within it or not), a table of CPU time, then
 * SQL statements and mails per request, and the verdict on the answers (every difference listed).
 */
export function formatEnumeration({ rows, logged, plan, users, load }) {
  const noiseOf = (value) => (Number.isNaN(value) ? "–" : `±${(value * 100).toFixed(1)} %`);
  const withinOf = (verdict) => (Number.isNaN(verdict.band) ? "–" : verdict.within ? "yes" : "**no**");
  const pOf = (verdict) => (Number.isNaN(verdict.p) ? "–" : verdict.p.toFixed(3));
  const name = (row) => `${row.operation} (\`POST ${row.path}\`)`;
  const lines = [
    "Time to answer (each request awaited before the next; ms):",
    "",
    "| operation | requests per side | known median | unknown median | known / unknown | known IQR | unknown IQR | noise band | p | within noise |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const iqr = (side) => `${ms(side.q1)}–${ms(side.q3)}`;
    lines.push(
      `| ${name(row)} | ${count(row.known.requests)} | ${ms(row.known.median)} | ${ms(row.unknown.median)} | ${row.time.ratio.toFixed(3)}x | ${iqr(row.known)} | ${iqr(row.unknown)} | ${noiseOf(row.time.band)} | ${pOf(row.time)} | ${withinOf(row.time)} |`,
    );
  }
  lines.push(
    "",
    "CPU time of the app's process per request (user + system, scrypt's thread included; the SMTP server is another process; µs, median over the slices):",
    "",
    "| operation | known | unknown | known / unknown | noise band | p | within noise | SQL statements per request (known / unknown) | mail size (known / unknown) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
  );
  for (const row of rows) {
    const { known, unknown } = row;
    const mail = known.mails + unknown.mails > 0 ? `${count(known.mailBytes)} B / ${count(unknown.mailBytes)} B` : "no mail";
    lines.push(
      `| ${row.operation} | ${count(known.cpu)} | ${count(unknown.cpu)} | ${row.cpu.ratio.toFixed(3)}x | ${noiseOf(row.cpu.band)} | ${pOf(row.cpu)} | ${withinOf(row.cpu)} | ${count(known.queries, 2)} / ${count(unknown.queries, 2)} | ${mail} |`,
    );
  }
  lines.push("");
  for (const row of rows) {
    const gap = row.known.median - row.unknown.median;
    lines.push(
      `- ${row.operation}: known ${percent(row.time.ratio - 1)} (${gap >= 0 ? "+" : "−"}${ms(Math.abs(gap))} ms) in time, ${percent(row.cpu.ratio - 1)} (${row.known.cpu >= row.unknown.cpu ? "+" : "−"}${count(Math.abs(row.known.cpu - row.unknown.cpu))} µs) in CPU`,
    );
  }
  lines.push("");
  const differences = rows.flatMap((row) => row.differences.map((d) => `${row.operation}: ${d}`));
  if (differences.length === 0) {
    const answers = rows.map((row) => {
      const cookies = row.answer.cookies.length ? `sets ${row.answer.cookies.join(", ")}` : "sets no cookie";
      return `${row.operation} ${row.answer.status} → \`${row.answer.location.slice(ORIGIN.length)}\`, ${cookies}`;
    });
    lines.push(
      `Answers identical for known and unknown addresses: every request of each operation (warm-up included) got the same status, Location, Set-Cookie names, header names and body (${answers.join("; ")}), and every mail went to its own address with its side's subject.`,
    );
  } else {
    lines.push(`ANSWERS DIFFER (${differences.length}):`, ...differences.slice(0, 20).map((d) => `- ${d}`));
  }
  const errors = Object.entries(logged)
    .map(([type, n]) => `${type} × ${count(n)}`)
    .join(", ");
  lines.push(
    "",
    `Set-up: rate limits off (\`rateLimit: false\`: every request comes from one client, and limits would refuse most); ${count(users)} proven users with a password, in PGlite; per operation ${plan.warmup} warm-up request(s) per side, then ${plan.rounds} rounds of one slice per side, the side going first alternating; every request has an address and a CSRF cookie of its own. Noise band: the two slices of each round relabelled (swapped or not) in every combination, ${plan.rounds >= 4 ? count(Math.min(2 ** plan.rounds, 65_536)) : "none"} relabellings, each giving a known / unknown ratio between slices that are the same kind by construction; the band is the 95th percentile of their distance from 1, p the share at least as far from 1 as the measured ratio; "within noise" when the measured ratio is inside the band. Logged by the app: ${errors || "nothing"}. Load average (1 min) ${load.before.toFixed(1)} before the run, ${load.after.toFixed(1)} after.`,
  );
  return lines.join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick") || process.env.AUTHLIB_BENCH_QUICK === "1";
  const log = (line) => process.stderr.write(`${line}\n`);
  console.log(`# Password(): known vs unknown addresses, interleaved${quick ? " (quick: a few requests, no reading of the times)" : ""}

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}
`);
  log("password enumeration: sign-up, reset request and sign-in, known vs unknown addresses…");
  const result = await passwordEnumeration({ plan: quick ? QUICK : FULL, log });
  console.log(formatEnumeration(result));
  if (!answersIdentical(result)) process.exitCode = 1;
}
