/**
 * Makes the consumer app: `npm pack` of each package, a fresh Qwik City app from `create-qwik`'s `empty`
 * starter with the node-server and cloudflare-pages adapters that ship inside `@builder.io/qwik`, the
 * tarballs installed as the Qwik README and the guide say, and the README's and the guide's files
 * (docs/getting-started.md) written into it verbatim.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { addAdapterFiles } from "./adapters.js";
import { guideCommands, guideFilesFor, SECTIONS } from "./guide.js";

const REPO = resolve(import.meta.dirname, "..");
/** The packages a user installs, by workspace folder. */
export const PACKAGES = ["core", "qwik", "hosted-db-adapter"] as const;
const QWIK_VERSION = "1.20.1";
/** Lint and format tools of the starter: nothing here uses them, and installing them costs half the time. */
export const UNUSED_STARTER_TOOLS =
  /^(eslint|@eslint\/|eslint-plugin-|globals$|prettier$|typescript-eslint$|typescript-plugin-css-modules$)/;

/** Runs `command` in `cwd` without npm's funding and audit chatter; returns its output, throws when it fails. */
export function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NPM_CONFIG_FUND: "false", NPM_CONFIG_AUDIT: "false" },
  });
}

/** The test packs what `npm run build` made (`.ci/run` runs it first, through `npm test`). */
function assertBuilt(dir: string): void {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  let main: unknown = manifest.exports?.["."];
  while (main && typeof main === "object") main = (main as Record<string, unknown>).import ?? (main as Record<string, unknown>).default;
  if (typeof main !== "string" || !existsSync(join(dir, main)))
    throw new Error(`${manifest.name} is not built (${String(main)} is missing): run \`npm run build\` first.`);
}

/** Packs every package into `dir`; returns the tarball paths by package folder. */
export function packPackages(dir: string): Record<(typeof PACKAGES)[number], string> {
  mkdirSync(dir, { recursive: true });
  const tarballs = {} as Record<(typeof PACKAGES)[number], string>;
  for (const name of PACKAGES) {
    assertBuilt(join(REPO, "packages", name));
    const out = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", dir], join(REPO, "packages", name))) as {
      filename: string;
    }[];
    tarballs[name] = join(dir, out[0].filename);
  }
  return tarballs;
}

/**
 * The set-up files of packages/qwik/README.md: every ts/tsx block of its "Set-up" section whose first line
 * is `// <path>`, so the docs are what the test runs.
 */
export function readmeFiles(): { path: string; text: string }[] {
  const readme = readFileSync(join(REPO, "packages/qwik/README.md"), "utf8");
  const start = readme.indexOf("## Set-up");
  const end = readme.indexOf("\n## ", start + 1);
  if (start < 0) throw new Error("packages/qwik/README.md has no '## Set-up' section");
  const section = readme.slice(start, end < 0 ? undefined : end);
  const files: { path: string; text: string }[] = [];
  for (const [, body] of section.matchAll(/```tsx?\n([\s\S]*?)```/g)) {
    const first = body.split("\n", 1)[0].match(/^\/\/ (src\/\S+)$/);
    if (first) files.push({ path: first[1], text: body });
  }
  return files;
}

/** The `npm install` line of the README's set-up (`npm install -D @authlib/qwik …`): its flags and packages. */
export function readmeInstall(): string[] {
  const readme = readFileSync(join(REPO, "packages/qwik/README.md"), "utf8");
  const line = readme.match(/^npm install (.+)$/m);
  if (!line) throw new Error("packages/qwik/README.md has no `npm install` line");
  return line[1].trim().split(/\s+/);
}

/** `npm install …` with each @authlib package replaced by its tarball. */
export function installWithTarballs(app: string, words: string[], tarballs: Record<(typeof PACKAGES)[number], string>): void {
  const byName: Record<string, string> = {
    "@authlib/core": tarballs.core,
    "@authlib/qwik": tarballs.qwik,
    "@authlib/hosted-db-adapter": tarballs["hosted-db-adapter"],
  };
  const args = words.map((word) => byName[word] ?? word);
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline", ...args], app);
}

/** Writes `files` (path → text) into `app`. */
export function writeAppFiles(app: string, files: Iterable<readonly [string, string]>): void {
  for (const [path, text] of files) {
    const target = join(app, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** Drops the starter's {@link UNUSED_STARTER_TOOLS} from `app`'s package.json, and their scripts (`qwik build` would run `lint`). */
export function dropUnusedStarterTools(app: string): void {
  const path = join(app, "package.json");
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  for (const name of Object.keys(manifest.devDependencies)) if (UNUSED_STARTER_TOOLS.test(name)) delete manifest.devDependencies[name];
  for (const name of ["lint", "fmt", "fmt.check"]) delete manifest.scripts[name];
  writeFileSync(path, JSON.stringify(manifest, null, 2));
}

/** Replaces `find` in the app's file, or fails naming the starter file that changed. */
export function patchStarterFile(app: string, file: string, find: string, replace: string): void {
  const path = join(app, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(find)) throw new Error(`the starter's ${file} changed (no \`${find}\`): see consumer/app.ts`);
  writeFileSync(path, text.replace(find, replace));
}

/** The one change to the node-server starter's code: its server listens on every interface; the test's, on loopback only. */
export function listenOnLoopback(app: string): void {
  patchStarterFile(app, "src/entry.node-server.tsx", "server.listen(PORT, ", 'server.listen(Number(PORT), "127.0.0.1", ');
}

/** The guide's `npm install` lines for the database and the mail transport (step 7, Node and Cloudflare). */
export function installGuidePackages(app: string, tarballs: Record<(typeof PACKAGES)[number], string>): void {
  for (const section of [SECTIONS.serverOnly, SECTIONS.cloudflare]) {
    const install = guideCommands(section).find((command) => command.startsWith("npm install "));
    if (!install) throw new Error(`docs/getting-started.md has no \`npm install\` under "${section}"`);
    installWithTarballs(app, install.slice("npm install ".length).split(/\s+/), tarballs);
  }
}

/** The guide's Vite plugin (docs/getting-started.md, step 7): the client build fails if server-only code reaches it. */
export function addServerOnlyPlugin(app: string): void {
  patchStarterFile(app, "vite.config.ts", "plugins: [", "plugins: [authlibServerOnly(), ");
  const path = join(app, "vite.config.ts");
  writeFileSync(path, `import { authlibServerOnly } from "@authlib/qwik/vite";\n${readFileSync(path, "utf8")}`);
}

/** Creates the app in `dir/app` and installs the tarballs; returns the app's folder. */
export function createApp(dir: string, tarballs: Record<(typeof PACKAGES)[number], string>): string {
  // The guide's `npm create qwik@latest empty my-app`, pinned and offline (see guide.test.ts).
  run("npx", ["--yes", `create-qwik@${QWIK_VERSION}`, "empty", "app"], dir);
  const app = join(dir, "app");
  dropUnusedStarterTools(app);

  // Both adapters of the guide's step 7, as `qwik add` would add them (see adapters.ts).
  for (const adapter of ["node-server", "cloudflare-pages"] as const) addAdapterFiles(app, adapter);
  listenOnLoopback(app);

  // Qwik's CLI (`qwik build`, which `npm run build` runs) requires `ignore`, which the app has only through
  // the starter's eslint, dropped above.
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefer-offline", "-D", "ignore@^7"], app);
  // The README's install line, then the guide's for the database and the mail transport.
  installWithTarballs(app, readmeInstall(), tarballs);
  installGuidePackages(app, tarballs);

  // The README's set-up files, then the guide's (a later file of the same path wins: step 7's plugin@auth.ts).
  writeAppFiles(
    app,
    readmeFiles().map((file) => [file.path, file.text] as const),
  );
  writeAppFiles(app, guideFilesFor());
  addServerOnlyPlugin(app);
  return app;
}

/** Files under `dir` (recursively), relative paths. */
export function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}
