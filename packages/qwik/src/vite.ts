/**
 * A Vite plugin that fails the client build, with a message that names the culprit, when server-only code
 * lands in a browser chunk. Without it, a Node built-in imported by code the client build keeps either
 * breaks `npm run build` with a Rollup error about `__vite-browser-external`, or ships a chunk that fails
 * in the browser; and the app's `src/server/` modules (database client, mail transport, secrets) would be
 * served to anyone.
 *
 * Used from the app's `vite.config.ts`: `plugins: [qwikCity(), qwikVite(), authlibServerOnly()]`. Plain
 * code without `$` functions, so it loads in Node as Vite loads its config.
 *
 * @module vite
 */

/** Options of {@link authlibServerOnly}. */
export interface ServerOnlyOptions {
  /**
   * Folders (relative to the app's root, `/`-separated) whose modules must never reach the client build.
   * Default `["src/server/"]`, where the guide keeps the database client and the mail transport.
   */
  serverDirs?: string[];
}

/** The part of a Vite/Rollup plugin this one uses: structural, so the package needs no Vite types. */
export interface ServerOnlyPlugin {
  name: string;
  apply: "build";
  configResolved(config: { root: string; build: { ssr?: unknown } }): void;
  buildEnd(this: BuildContext, error?: Error & { id?: string }): void;
  generateBundle(
    this: BuildContext,
    options: unknown,
    bundle: Record<string, { type: string; fileName: string; imports?: string[]; moduleIds?: string[] }>,
  ): void;
}

/** What the plugin uses of Rollup's plugin context. */
export interface BuildContext {
  error(message: string): never;
  environment?: { config?: { consumer?: string } };
}

/** Modules Vite puts where a client build imports a Node built-in, and Node built-ins left as imports. */
const NODE_MODULE = /^(?:node:|\0?__vite-browser-external)/;

/**
 * The Vite plugin that makes a client build fail with `[authlib:server-only] …` when a browser chunk
 * contains a Node built-in (`node:*`) or a module from one of `serverDirs`. The server (SSR) build is not
 * checked: that is where such code belongs.
 */
export function authlibServerOnly(options: ServerOnlyOptions = {}): ServerOnlyPlugin {
  const dirs = (options.serverDirs ?? ["src/server/"]).map((dir) => dir.replace(/^\.?\/+/, ""));
  let root = "";
  let ssrBuild = false;
  return {
    name: "authlib:server-only",
    apply: "build",
    configResolved(config) {
      root = config.root.replace(/\\/g, "/").replace(/\/?$/, "/");
      ssrBuild = Boolean(config.build.ssr);
    },
    buildEnd(error) {
      // A named import from a Node built-in fails before any chunk exists, with Rollup's "… is not exported
      // by __vite-browser-external": say what it means and where.
      if (!error || !isClientBuild(this, ssrBuild) || !error.message.includes("__vite-browser-external")) return;
      this.error(
        `[authlib:server-only] The client build imports a Node built-in${error.id ? ` in ${describe(error.id, root)}` : ""}. ${ADVICE} (${error.message})`,
      );
    },
    generateBundle(_options, bundle) {
      if (!isClientBuild(this, ssrBuild)) return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        const found = [...(chunk.imports ?? []), ...(chunk.moduleIds ?? [])].find((id) => isServerOnly(id, root, dirs));
        if (found !== undefined) {
          this.error(
            `[authlib:server-only] The client chunk ${chunk.fileName} contains server-only code: ${describe(found, root)}. ${ADVICE}`,
          );
        }
      }
    },
  };
}

const ADVICE =
  "Use database clients, mail transports and Node built-ins only in server code (inside FrameworkAuth$'s function in " +
  "src/routes/plugin@auth.ts, routeLoader$, globalAction$, server$), through a getter in a src/server/ module.";

/** Vite 6+ builds each environment with the same plugin object: its consumer says which one this is. */
function isClientBuild(context: BuildContext, ssrBuild: boolean): boolean {
  const consumer = context.environment?.config?.consumer;
  return consumer ? consumer === "client" : !ssrBuild;
}

function isServerOnly(id: string, root: string, dirs: string[]): boolean {
  if (NODE_MODULE.test(id)) return true;
  const path = id.replace(/\\/g, "/").split("?")[0] ?? "";
  return dirs.some((dir) => path.startsWith(root + dir));
}

function describe(id: string, root: string): string {
  const path = id.replace(/\\/g, "/").replace(/^\0/, "");
  return path.startsWith(root) ? path.slice(root.length) : path;
}
