/**
 * The built-in pages, loaded on first use. They are preact components; importing them statically would
 * put preact, preact-render-to-string and the page code into every server bundle of `Auth`, including
 * apps that only check sessions or use their own pages (`scripts/bundle-budget.mjs` measures this).
 *
 * @module pages/lazy
 */

import type { Translator } from "../i18n/types.js";
import type { AuthConfig } from "../types.js";

/** The page renderers (`pages/index`). */
export type Pages = typeof import("./index.js");

let loading: Promise<Pages> | undefined;

/** The page renderers; the module is imported once, on the first page a request asks for. */
export function loadPages(): Promise<Pages> {
  loading ??= import("./index.js");
  return loading;
}

/**
 * The texts of `request`'s language under `config` (`locale`, `messages`, `Accept-Language`). The
 * chooser and the catalogs load with the first page; only the chosen language's catalog is imported.
 */
export async function loadPageText(config: Pick<AuthConfig, "locale" | "messages">, request: Request): Promise<Translator> {
  const { requestTranslator } = await import("../i18n/request.js");
  return requestTranslator(config, request);
}
