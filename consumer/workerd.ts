/**
 * The Cloudflare Pages build served on workerd, as the adapter's `npm run serve` (`wrangler pages dev
 * <dir> --compatibility-flags=…`) would: `<dir>/_worker.js` bundled with esbuild (wrangler bundles an
 * advanced-mode `_worker.js` too), run by miniflare on a loopback port with the script's compatibility
 * flags, KV namespaces and `.dev.vars` as bindings, and the static files of `<dir>` behind `env.ASSETS`, which Qwik
 * City's Cloudflare middleware asks for `/build/*` and `/assets/*`.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import type { AppServer } from "./server.js";

/** The workerd date the worker runs with: the bundled workerd's own is later. */
const COMPATIBILITY_DATE = "2026-04-01";

/** What `wrangler pages dev` was asked to do. */
export interface PagesDevArgs {
  /** The build's output folder, relative to the app. */
  readonly dir: string;
  readonly compatibilityFlags: string[];
  /** KV namespaces to bind (`--kv=NAME`), empty and local. */
  readonly kv: string[];
}

/** Reads a `wrangler pages dev <dir> [--compatibility-flags=a,b] [--kv=NAME]` command line; throws on anything else. */
export function parsePagesDev(command: string): PagesDevArgs {
  const words = command.trim().split(/\s+/);
  if (words[0] !== "wrangler" || words[1] !== "pages" || words[2] !== "dev" || !words[3])
    throw new Error(`not a \`wrangler pages dev <dir>\` command: ${command}`);
  const compatibilityFlags: string[] = [];
  const kv: string[] = [];
  for (const word of words.slice(4)) {
    const flags = word.match(/^--compatibility-flags?=(.+)$/);
    const namespace = word.match(/^--kv=(\w+)$/);
    if (flags) compatibilityFlags.push(...flags[1].split(","));
    else if (namespace) kv.push(namespace[1]);
    else throw new Error(`consumer/workerd.ts does not map the wrangler option ${word}`);
  }
  return { dir: words[3], compatibilityFlags, kv };
}

/** `KEY=value` lines (`.dev.vars`, `.env`): blank lines and `#` comments skipped, no quoting rules. */
export function parseVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = line.match(/^\s*([A-Za-z_]\w*)=(.*)$/);
    if (match) vars[match[1]] = match[2];
  }
  return vars;
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain",
  ".xml": "application/xml",
};

/** Pages' static asset server, reduced to what the test needs: a file of `root` or a 404. */
function assetServer(root: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const path = normalize(decodeURIComponent(new URL(request.url).pathname));
    const file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || path.endsWith("/")) return new Response("Not Found", { status: 404 });
    return new Response(await readFile(file), { headers: { "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" } });
  };
}

/** Sends the worker's request on from Node, as it is (miniflare's `Request` is not Node's: copied field by field). */
async function passThrough(request: Request): Promise<Response> {
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  const headers = new Headers(request.headers);
  // fetch sets its own; a copied one would conflict.
  headers.delete("host");
  headers.delete("content-length");
  return fetch(request.url, { method: request.method, headers, body, redirect: "manual" });
}

/**
 * Serves `app`'s Cloudflare Pages build on workerd at `127.0.0.1:<port>`; `vars` are the worker's bindings.
 * The worker's outbound requests go out as they are, except those to `api.origin`, which `api` answers
 * (the mail API the app sends through).
 */
export async function startPagesDev(
  app: string,
  args: PagesDevArgs,
  vars: Record<string, string>,
  port: number,
  api: { origin: string; answer(request: Request): Promise<Response> },
): Promise<AppServer> {
  const root = join(app, args.dir);
  const worker = join(app, ".consumer-worker/_worker.mjs");
  await build({
    entryPoints: [join(root, "_worker.js")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: worker,
    // workerd's built-ins stay imports; the rest of the server build goes into one module.
    external: ["node:*", "cloudflare:*"],
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    logLevel: "error",
  });
  let output = "";
  const mf = new Miniflare({
    modulesRoot: join(app, ".consumer-worker"),
    modules: [{ type: "ESModule", path: worker, contents: await readFile(worker, "utf8") }],
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: args.compatibilityFlags,
    host: "127.0.0.1",
    port,
    cf: false,
    bindings: vars,
    serviceBindings: { ASSETS: assetServer(root) },
    kvNamespaces: args.kv,
    outboundService: (request: Request) => (new URL(request.url).origin === api.origin ? api.answer(request) : passThrough(request)),
    handleRuntimeStdio(stdout, stderr) {
      stdout.on("data", (chunk) => (output += chunk));
      stderr.on("data", (chunk) => (output += chunk));
    },
  });
  await mf.ready;
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => mf.dispose() };
}
