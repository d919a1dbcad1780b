/**
 * The built-in pages, loaded on first use. They are preact components; importing them statically would
 * put preact, preact-render-to-string and the page code into every server bundle of `Auth`, including
 * apps that only check sessions or use their own pages (`scripts/bundle-budget.mjs` measures this).
 *
 * @module pages/lazy
 */

/** The page renderers (`pages/index`). */
export type Pages = typeof import("./index.js");

let loading: Promise<Pages> | undefined;

/** The page renderers; the module is imported once, on the first page a request asks for. */
export function loadPages(): Promise<Pages> {
  loading ??= import("./index.js");
  return loading;
}
