/**
 * Qwik City's server adapters in the consumer app, as `npm run qwik add <adapter>` adds them: the
 * adapter's starter files (they ship inside `@builder.io/qwik/dist/starters/adapters/<adapter>`) copied
 * into the app and its `package.json` scripts merged into the app's.
 *
 * Why not the command itself: `qwik add cloudflare-pages` installs wrangler (a second workerd binary, a
 * download CI does not need: the test serves the Cloudflare build with the root's miniflare and workerd,
 * see workerd.ts), and the one app switches between the two adapters, which `qwik add` would do by
 * copying the starter files again over the test's loopback-only change to the Node entry (app.ts).
 *
 * Both adapters live in the one app (their files do not overlap); {@link useAdapter} switches the
 * scripts, as adding that adapter last would leave them. A Qwik 2 app takes them from its own
 * `@qwik.dev/core/dist/starters/adapters` instead: each function takes the starters' folder.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The adapters the guide names. */
export type AdapterName = "node-server" | "cloudflare-pages";

/** Qwik 1's adapter starters (the root's `@builder.io/qwik`, the version the Qwik 1 app installs). */
export const QWIK1_STARTERS = resolve(import.meta.dirname, "../node_modules/@builder.io/qwik/dist/starters/adapters");

/** The adapter's `package.json` scripts (`build.server`, `serve`, `deploy`). */
export function adapterScripts(name: AdapterName, starters = QWIK1_STARTERS): Record<string, string> {
  return JSON.parse(readFileSync(join(starters, name, "package.json"), "utf8")).scripts;
}

/** Copies the adapter's files into `app` (its `adapters/`, `src/` and `public/`), as `qwik add` does. */
export function addAdapterFiles(app: string, name: AdapterName, starters = QWIK1_STARTERS): void {
  for (const folder of ["adapters", "src", "public"]) {
    const from = join(starters, name, folder);
    if (existsSync(from)) cpSync(from, join(app, folder), { recursive: true });
  }
}

/** Makes `name`'s scripts the app's (`npm run build` then builds for it, `npm run serve` serves it). */
export function useAdapter(app: string, name: AdapterName, starters = QWIK1_STARTERS): void {
  const path = join(app, "package.json");
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  manifest.scripts = { ...manifest.scripts, ...adapterScripts(name, starters) };
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The app's script `name`, as `npm run <name>` would run it. */
export function appScript(app: string, name: string): string {
  const script = JSON.parse(readFileSync(join(app, "package.json"), "utf8")).scripts?.[name];
  if (typeof script !== "string") throw new Error(`the app has no "${name}" script`);
  return script;
}
