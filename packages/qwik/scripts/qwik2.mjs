#!/usr/bin/env node
/**
 * The one difference between the Qwik 1 and Qwik 2 builds of this package: the module names. Qwik 2 moved
 * `@builder.io/qwik` to `@qwik.dev/core` and `@builder.io/qwik-city` to `@qwik.dev/router`, with the same
 * exports for everything this package uses (`implicit$FirstArg`, `isServer`, `routeLoader$`,
 * `globalAction$`, `validator$`, `z`, the request-event types). The Vite build maps its imports with
 * {@link qwik2Specifier} (and the consumer test writes the guide's files into its Qwik 2 app with
 * {@link qwik2Source}); run as a script, this writes the Qwik 2 declarations (`lib/qwik2/types/`) from
 * the Qwik 1 ones (`lib/types/`) with the same mapping.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** @type {ReadonlyArray<readonly [RegExp, string]>} */
const RENAMED = [
  [/^@builder\.io\/qwik-city(?=\/|$)/, "@qwik.dev/router"],
  [/^@builder\.io\/qwik(?=\/|$)/, "@qwik.dev/core"],
];

/**
 * The Qwik 2 name of a Qwik 1 module specifier (`@builder.io/qwik-city/x` -> `@qwik.dev/router/x`); any
 * other specifier unchanged.
 * @param {string} specifier
 * @returns {string}
 */
export function qwik2Specifier(specifier) {
  for (const [from, to] of RENAMED) if (from.test(specifier)) return specifier.replace(from, to);
  return specifier;
}

/**
 * `text` (a declaration file, or an app's source) with every quoted Qwik 1 module specifier mapped to its
 * Qwik 2 name; the rest of it unchanged.
 * @param {string} text
 * @returns {string}
 */
export function qwik2Source(text) {
  return text.replace(/(["'])(@builder\.io\/qwik[^"']*)\1/g, (_, quote, name) => quote + qwik2Specifier(name) + quote);
}

/**
 * Copies the declarations under `from` to `to`, every quoted module specifier mapped to its Qwik 2 name.
 * @param {string} from
 * @param {string} to
 */
export function writeQwik2Declarations(from, to) {
  for (const entry of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const source = join(entry.parentPath, entry.name);
    const target = join(to, source.slice(from.length));
    const text = qwik2Source(readFileSync(source, "utf8"));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lib = resolve(dirname(fileURLToPath(import.meta.url)), "../lib");
  writeQwik2Declarations(join(lib, "types"), join(lib, "qwik2/types"));
}
