/**
 * The translator of one request: the language chosen as `i18n/locale` says, the app's own texts for it
 * (config `messages`) over the shipped catalog, English under both. Only the chosen language's catalog
 * module is imported, on its first use.
 *
 * @module i18n/request
 */
import type { AuthConfig } from "../types/config.js";
import type { FeatureTexts, Messages, Translator } from "../types/i18n.js";
import { matchLocale, parseAcceptLanguage, SHIPPED_LOCALES } from "./locale.js";
import { createTranslator, ENGLISH, englishOf } from "./translator.js";

type CatalogModule = Promise<Partial<Messages>>;

// One import per language so that a bundler splits each catalog into its own chunk.
const SHIPPED: Readonly<Record<string, () => CatalogModule>> = Object.freeze({
  de: () => import("./catalogs/de.js").then((m) => m.de),
  fr: () => import("./catalogs/fr.js").then((m) => m.fr),
  es: () => import("./catalogs/es.js").then((m) => m.es),
  pt: () => import("./catalogs/pt.js").then((m) => m.pt),
  ja: () => import("./catalogs/ja.js").then((m) => m.ja),
  zh: () => import("./catalogs/zh.js").then((m) => m.zh),
});

function shippedCatalog(tag: string): CatalogModule | undefined {
  return Object.hasOwn(SHIPPED, tag) ? SHIPPED[tag]?.() : undefined;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null;
}

/** The language tags a request may get: the shipped ones and those the app added in `messages`. */
function availableLocales(config: Pick<AuthConfig, "messages">): string[] {
  const added = isObject(config.messages) ? Object.keys(config.messages) : [];
  return [...SHIPPED_LOCALES, ...added];
}

/** What the request asks for: the configured locale (a string, or the function's answer), else its `Accept-Language`. */
function requested(config: Pick<AuthConfig, "locale">, request: Request): string[] {
  let configured: unknown;
  try {
    configured = typeof config.locale === "function" ? config.locale(request) : config.locale;
  } catch {
    // A page must still render (the error page too): a failing locale function means "not decided".
    configured = undefined;
  }
  if (typeof configured === "string" && configured !== "") return [configured];
  return parseAcceptLanguage(request.headers.get("accept-language"));
}

/** The language `request` gets under `config` (a tag of a shipped catalog or of `config.messages`; `"en"` by default). */
export function chooseLocale(config: Pick<AuthConfig, "locale" | "messages">, request: Request): string {
  return matchLocale(requested(config, request), availableLocales(config)) ?? "en";
}

/** The features' texts in the shipped language `tag`, each loaded on first use. */
function featureCatalogs(features: readonly FeatureTexts[], tag: string): Promise<Array<Partial<Messages> | undefined>> {
  return Promise.all(features.map((feature) => (Object.hasOwn(feature, tag) ? feature[tag]?.() : undefined)));
}

/**
 * The translator of `request` under `config`, with the texts `features` carry (`FeatureDefinition.messages`,
 * the instance's `featureMessages`) beside the shipped catalogs: the app's `messages` override both.
 */
export async function requestTranslator(
  config: Pick<AuthConfig, "locale" | "messages">,
  request: Request,
  features: readonly FeatureTexts[] = [],
): Promise<Translator> {
  const locale = chooseLocale(config, request);
  const base = locale.split("-")[0] ?? locale;
  const added: Readonly<Record<string, unknown>> = isObject(config.messages) ? config.messages : {};
  const own = (tag: string) => (Object.hasOwn(added, tag) && isObject(added[tag]) ? added[tag] : undefined);
  if (locale === "en" && own("en") === undefined && features.length === 0) return ENGLISH;
  const english = await englishOf(features);
  if (locale === "en" && own("en") === undefined) return createTranslator("en", [], english);
  // The language's shipped texts, or its base language's: the catalog's and the features' (their keys do not overlap).
  const tag = [locale.toLowerCase(), base.toLowerCase()].find((candidate) => Object.hasOwn(SHIPPED, candidate));
  const shipped = tag === undefined ? [] : [await shippedCatalog(tag), ...(await featureCatalogs(features, tag))];
  return createTranslator(locale, [own(locale), locale === base ? undefined : own(base), ...shipped], english);
}
