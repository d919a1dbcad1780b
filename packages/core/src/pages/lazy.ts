/**
 * The built-in pages, loaded on first use. They are preact components; importing them statically would
 * put preact, preact-render-to-string and the page code into every server bundle of `Auth`, including
 * apps that only check sessions or use their own pages (`scripts/bundle-budget.mjs` measures this).
 *
 * @module pages/lazy
 */

import type { AuthConfig } from "../types/config.js";
import type { FeatureTexts, Translator } from "../types/i18n.js";

/** The page renderers (`pages/index`). */
export type Pages = typeof import("./index.js");

let loading: Promise<Pages> | undefined;

/**
 * The page renderers and the texts of `request`'s language under `config` (`locale`, `messages`,
 * `Accept-Language`), with the texts of the instance's `features`. The module is imported once, on the first
 * page a request asks for; only the chosen language's catalogs are imported with it.
 */
export async function loadPages(
  config: Pick<AuthConfig, "locale" | "messages">,
  request: Request,
  features?: readonly FeatureTexts[],
): Promise<Pages & { text: Translator }> {
  loading ??= import("./index.js");
  const pages = await loading;
  return { ...pages, text: await pages.pageText(config, request, features) };
}
