/**
 * The root README's quick start, verbatim, against the installed tarballs: its `auth.ts` block (types
 * stripped by esbuild, nothing else changed) next to a user store, driven by plain Node with Web-standard
 * requests — a CSRF token, a wrong password, a right one, and the session read back.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import { expect, inject, test } from "vitest";

const app = inject("consumerApp");
const REPO = fileURLToPath(new URL("..", import.meta.url));

/** The first `ts` block of the root README's "Quick start" section. */
function quickStart(): string {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start"));
  const block = section.match(/```ts\n([\s\S]*?)```/);
  if (!block?.[1]) throw new Error("README.md has no ts block under '## Quick start'");
  return block[1];
}

/** TypeScript to JavaScript, types stripped and nothing else changed. */
function js(source: string): string {
  return transformSync(source, { loader: "ts", format: "esm" }).code;
}

/** Signs in through the README's `handleAuth` and reads the session with its `currentSession`. */
const DRIVER = `
import { currentSession, handleAuth } from "./auth.js";
import { ADA } from "./users.js";
const origin = "http://localhost:3000";
const jar = new Map();
const keep = (response) => { for (const line of response.headers.getSetCookie()) { const [pair] = line.split(";"); const i = pair.indexOf("="); jar.set(pair.slice(0, i), pair.slice(i + 1)); } };
const cookie = () => [...jar].filter(([, v]) => v !== "").map(([k, v]) => k + "=" + v).join("; ");
const csrf = await handleAuth(new Request(origin + "/auth/csrf"));
keep(csrf);
const { csrfToken } = await csrf.json();
const post = (password) => handleAuth(new Request(origin + "/auth/callback/credentials", {
  method: "POST",
  headers: { cookie: cookie(), origin, "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams({ csrfToken, email: ADA.email, password, callbackUrl: "/dashboard" }),
}));
const wrong = await post("not the password");
keep(wrong);
const afterWrong = await currentSession(new Request(origin + "/", { headers: { cookie: cookie() } }));
const right = await post(ADA.password);
keep(right);
const session = await currentSession(new Request(origin + "/", { headers: { cookie: cookie() } }));
console.log(JSON.stringify({ wrong: wrong.headers.get("location"), afterWrong, right: right.headers.get("location"), session }));
`;

test("the root README's quick start signs in with credentials and reads the session, verbatim", () => {
  const dir = join(app, "quick-start");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "auth.js"), js(quickStart()));
  writeFileSync(join(dir, "users.js"), js(readFileSync(join(REPO, "consumer/fixture/src/server/users.ts"), "utf8")));
  writeFileSync(join(dir, "driver.js"), DRIVER);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const result = spawnSync(process.execPath, ["driver.js"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, AUTH_SECRET: "consumer-quick-start-secret-0123456789abcdef", NODE_ENV: "development" },
  });
  expect(result.status, result.stderr).toBe(0);
  const outcome = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
  // The failed form is named and gets the address typed back (issue 50).
  expect(outcome.wrong).toBe(
    "http://localhost:3000/auth/signin?error=CredentialsSignin&code=credentials&provider=credentials&email=ada%40example.com",
  );
  expect(outcome.afterWrong).toBeNull();
  expect(outcome.right).toBe("http://localhost:3000/dashboard");
  expect(outcome.session.user).toEqual({ name: "Ada Lovelace", email: "ada@example.com", image: null });
});
