// `npm run bench`: every benchmark, ours next to the reference, interleaved, in one run (about 3–4 minutes
// on 2 cores). Needs the built packages (`npm run build`). Prints Markdown tables ready for bench/README.md,
// headed by the commit, date, machine and Node version they belong to.
//   node bench/run.mjs [--no-http] [--no-inprocess] [--no-adapters] [--no-registry] [--no-organizations] [--no-resource] [--no-api-keys] [--no-password]
// Exits non-zero when the Password() enumeration run finds an answer that tells a known address from an
// unknown one.
import { existsSync, readFileSync } from "node:fs";
import { apiKeyRun, formatApiKeyTable, formatRefusalTable } from "./api-key-verify.mjs";
import { adapterOperations } from "./authjs-adapters.mjs";
import { commit, machine } from "./environment.mjs";
import { formatHttpTable, formatTable, interleave } from "./harness.mjs";
import { httpRun } from "./http.mjs";
import { inProcessOperations } from "./inprocess.mjs";
import { formatOrganizationsTable, organizationsRun } from "./organizations.mjs";
import { answersIdentical, formatEnumeration, passwordEnumeration } from "./password-enumeration.mjs";
import { formatProtectResourceTable, protectResourceRun } from "./protect-resource.mjs";
import { formatRegistryTable, measureRegistry, registryOperations } from "./session-registry.mjs";
import { formatTelemetryHttpTable, formatTelemetryTable, telemetryHttpRun, telemetryRun } from "./telemetry.mjs";

const args = new Set(process.argv.slice(2));

// The benchmarks measure the built packages, as an app gets them.
for (const dist of ["packages/core/dist/index.js", "packages/hosted-db-adapter/dist/index.js", "packages/qwik/lib/index.qwik.mjs"]) {
  if (!existsSync(new URL(`../${dist}`, import.meta.url))) {
    console.error(`${dist} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}
const log = (line) => process.stderr.write(`${line}\n`);

console.log(`# authlib vs Auth.js: one interleaved run

- commit: ${commit()}
- date: ${new Date().toISOString()}
- machine: ${machine()}
- Node ${process.version}; reference: @auth/core ${version("@auth/core")}; @auth/qwik ${version("@auth/qwik")} (with its own @auth/core ${version("@auth/qwik/node_modules/@auth/core")})
- ratio = ours / theirs (throughput; above 1 is faster)
`);

/** The installed version of a package (read from node_modules: neither package exports package.json). */
function version(dir) {
  try {
    return JSON.parse(readFileSync(new URL(`../node_modules/${dir}/package.json`, import.meta.url), "utf8")).version;
  } catch {
    return "?";
  }
}

if (!args.has("--no-inprocess")) {
  log("in-process operations (warm-up, then 9 alternating rounds of 200 ms slices each)…");
  const { operations, notes, close } = await inProcessOperations();
  try {
    const rows = await interleave(operations, {
      onRow: (row) => log(`  ${row.operation}: ${row.ratio === null ? "–" : `${row.ratio.toFixed(2)}x`}`),
    });
    console.log("## In process (Auth(), jwt, getSession)\n");
    console.log(formatTable(rows));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await close();
  }
}

if (!args.has("--no-adapters")) {
  log("database session check through Auth.js's adapters, ours and the reference on the same adapter (interleaved)…");
  const { operations, notes, close } = await adapterOperations();
  try {
    const rows = await interleave(operations, {
      onRow: (row) => log(`  ${row.operation}: ${row.ratio === null ? "–" : `${row.ratio.toFixed(2)}x`}`),
    });
    console.log("\n## Database session check through Auth.js's adapters\n");
    console.log(formatTable(rows));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await close();
  }
}

if (!args.has("--no-registry")) {
  log("session registry: JWT session checks without and with a registry (≥ 100,000 checks per side and row)…");
  const { operations, notes, close } = await registryOperations({ log });
  try {
    const rows = await measureRegistry(operations, {
      onRow: (row) => log(`  ${row.operation}: ${row.ratio.toFixed(2)}x of today`),
    });
    console.log("\n## Session registry (JWT session checks, issue 27)\n");
    console.log(formatRegistryTable(rows));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await close();
  }
}

if (!args.has("--no-organizations")) {
  log("organizations: JWT session checks with an active organization vs organizations off, interleaved…");
  const rows = await organizationsRun({ log });
  console.log("\n## Organizations (JWT session checks, an active organization vs organizations off)\n");
  console.log(formatOrganizationsTable(rows));
}

if (!args.has("--no-resource")) {
  log("resource: protectResource (an access token) vs getSession (a JWT session), interleaved…");
  const rows = await protectResourceRun({ log });
  console.log("\n## Resource server (protectResource of an access token vs getSession of a JWT session)\n");
  console.log(formatProtectResourceTable(rows));
}

if (!args.has("--no-api-keys")) {
  log("API keys: verifyApiKey vs getSession, and unknown-id vs wrong-secret refusals, interleaved…");
  const { speed, timing } = await apiKeyRun({ log });
  console.log("\n## API keys (verifyApiKey of a key vs getSession of a JWT session)\n");
  console.log(formatApiKeyTable(speed));
  console.log("\n## API keys: the two refusals an attacker compares (unknown id vs wrong secret; 1.00x is indistinguishable)\n");
  console.log(formatRefusalTable(timing));
}

if (!args.has("--no-telemetry")) {
  log("telemetry: JWT session checks with OpenTelemetry on (no SDK, then an SDK registered) vs telemetry: false, interleaved…");
  const rows = await telemetryRun({ log });
  console.log("\n## Telemetry (JWT session checks, OpenTelemetry on vs off)\n");
  console.log(formatTelemetryTable(rows));
  log(
    "telemetry over HTTP: GET /auth/session served by one process (on, off, least instrumentation), autocannon, rotating (about 2 minutes)…",
  );
  console.log(`\n${formatTelemetryHttpTable(await telemetryHttpRun({ log }))}`);
}

if (!args.has("--no-password")) {
  log("Password(): sign-up, reset request and sign-in, known vs unknown addresses, interleaved (about 1.5 minutes)…");
  const result = await passwordEnumeration({ log });
  console.log("\n## Password(): known vs unknown addresses (issue 28, enumeration)\n");
  console.log(formatEnumeration(result));
  if (!answersIdentical(result)) process.exitCode = 1;
}

if (!args.has("--no-http")) {
  const result = await httpRun({ log });
  console.log("\n## HTTP: two minimal Qwik City apps (bench/http), Qwik City node middleware on 127.0.0.1\n");
  console.log(formatHttpTable(result));
}
