// The database session check through Auth.js's official adapters: `Auth()` GET /session of ours
// (@authlib/core, built) and of the reference (@auth/core) on the same adapter object, the same user and the
// same session row, interleaved by bench/harness.mjs (warm-up, alternating slices, medians). The adapters
// and their tables are the conformance suite's (packages/core/test/adapters-conformance/authjs-adapters.ts,
// loaded through tsx), so the bench measures exactly what the suite proves works. Part of `npm run bench`;
// also runs alone (needs the built packages):
//   node bench/authjs-adapters.mjs
import { pathToFileURL } from "node:url";
import { Auth as RefAuth } from "@auth/core";
import RefGitHub from "@auth/core/providers/github";
import { Auth } from "@authlib/core";
import GitHub from "@authlib/core/providers/github";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { tsImport } from "tsx/esm/api";
import { commit, machine } from "./environment.mjs";
import { formatTable, interleave } from "./harness.mjs";

const SECRET = "bench-secret-0123456789abcdef0123456789";
const ORIGIN = "http://localhost:3000";
const OUR_COOKIE = "authlib.session-token";
const REF_COOKIE = "authjs.session-token";

const get = (cookie) => new Request(`${ORIGIN}/auth/session`, { headers: { cookie } });

function check(condition, what) {
  if (!condition) throw new Error(`bench setup: ${what}`);
}

async function postgresAnswers(url) {
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await probe.connect();
    await probe.query("SELECT 1");
    return null;
  } catch (error) {
    return error.message;
  } finally {
    await probe.end().catch(() => {});
  }
}

/**
 * One operation per adapter: ours and the reference each check the same database session through the same
 * adapter. The provider is GitHub (never contacted: the reference refuses Credentials with database
 * sessions). Every side is checked once before it is measured (it must answer the session's user), so a
 * broken setup fails instead of timing an error. Adapters on PostgreSQL (`postgresURL`, default
 * AUTHLIB_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test) are left out, with a note saying
 * why, when it does not answer.
 */
export async function adapterOperations({
  postgresURL = process.env.AUTHLIB_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
} = {}) {
  const { authjsAdapters } = await tsImport("../packages/core/test/adapters-conformance/authjs-adapters.ts", import.meta.url);
  let pglite;
  const kinds = authjsAdapters({ postgresURL, pglite: () => (pglite ??= new PGlite()) });
  const notes = [];
  const down = await postgresAnswers(postgresURL);
  if (down)
    notes.push(`PostgreSQL at ${postgresURL.replace(/:[^:@/]*@/, ":***@")} did not answer (${down}): its adapters' rows are left out.`);
  const opened = [];
  const operations = [];
  const github = { clientId: "bench", clientSecret: "bench" };
  try {
    for (const kind of kinds) {
      if (kind.store === "PostgreSQL" && down) continue;
      const { adapter, close } = await kind.open();
      opened.push(close);
      const user = await adapter.createUser({ id: crypto.randomUUID(), email: "ada@example.com", emailVerified: null, name: "Ada" });
      const sessionToken = crypto.randomUUID();
      await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 30 * 86400_000) });
      const ours = { secret: SECRET, trustHost: true, adapter, providers: [GitHub(github)] };
      const reference = { secret: SECRET, trustHost: true, adapter, session: { strategy: "database" }, providers: [RefGitHub(github)] };
      const ourRequest = () => Auth(get(`${OUR_COOKIE}=${sessionToken}`), ours);
      const refRequest = () => RefAuth(get(`${REF_COOKIE}=${sessionToken}`), reference);
      const name = `${kind.name} (${kind.store})`;
      check((await (await ourRequest()).json())?.user?.email === "ada@example.com", `database session through ${name} (ours)`);
      check((await (await refRequest()).json())?.user?.email === "ada@example.com", `database session through ${name} (reference)`);
      operations.push({ name: `Auth() GET /session (database), ${name}`, ours: ourRequest, theirs: refRequest });
    }
  } catch (error) {
    for (const close of opened) await close();
    await pglite?.close();
    throw error;
  }
  return {
    operations,
    notes,
    close: async () => {
      for (const close of opened) await close();
      await pglite?.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { operations, notes, close } = await adapterOperations();
  try {
    const rows = await interleave(operations, {
      onRow: (row) => process.stderr.write(`  ${row.operation}: ${row.ratio.toFixed(2)}x\n`),
    });
    console.log(
      `# Database session check through Auth.js's adapters\n\n- commit: ${commit()}\n- date: ${new Date().toISOString()}\n- machine: ${machine()}\n- Node ${process.version}\n`,
    );
    console.log(formatTable(rows));
    for (const note of notes) console.log(`\n${note}`);
  } finally {
    await close();
  }
}
