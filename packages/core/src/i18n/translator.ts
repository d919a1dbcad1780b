/**
 * A translator over one merged catalog. Values filled into a text are plain strings: the pages' JSX
 * renderer and the mail template escape them like any other text.
 *
 * @module i18n/translator
 */

import type { FeatureTexts, MessageKey, Messages, Translator } from "../types/i18n.js";
import { en as core } from "./catalogs/en.js";

// The primary subtags of the languages written right to left that an app may add a catalog for.
const RIGHT_TO_LEFT = new Set(["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "ckb", "dv"]);

/** The writing direction of `locale` (by its primary subtag). */
export function directionOf(locale: string): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(locale.split("-")[0]?.toLowerCase() ?? "") ? "rtl" : "ltr";
}

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The English catalog of an instance: the shipped one and the texts its features carry (`FeatureDefinition.messages`). */
export async function englishOf(features: readonly FeatureTexts[] = []): Promise<Messages> {
  if (features.length === 0) return core as Messages;
  const english: Record<string, string> = { ...core };
  const texts = await Promise.all(features.map((feature) => (Object.hasOwn(feature, "en") ? feature.en?.() : undefined)));
  // The first feature that has a key wins, as in every other language (`requestTranslator`'s layers): a
  // feature's texts derived from the app's configuration come first (`FeatureDefinition.configuredMessages`).
  for (const [key, text] of texts.reverse().flatMap((catalog) => Object.entries(catalog ?? {})))
    if (typeof text === "string" && key !== "__proto__") english[key] = text;
  return english as unknown as Messages;
}

/**
 * A translator for `locale` over `layers`, most specific first (app overrides, the shipped catalog of the
 * tag, of its base language): the first layer that has a key as an own string property wins, `en`
 * (the instance's English catalog, {@link englishOf}) last.
 */
export function createTranslator(locale: string, layers: ReadonlyArray<object | undefined>, en: Messages = core as Messages): Translator {
  const merged: Record<string, string> = { ...en };
  for (const layer of [...layers].reverse()) {
    if (!layer) continue;
    for (const key of Object.keys(layer)) {
      const value: unknown = (layer as Record<string, unknown>)[key];
      // Only our own keys: a catalog cannot add `__proto__` or anything a page would not ask for.
      if (typeof value === "string" && Object.hasOwn(en, key)) merged[key] = value;
    }
  }
  return {
    locale,
    dir: directionOf(locale),
    t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string {
      const text = merged[key] ?? en[key];
      if (!values) return text;
      return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
    },
  };
}

/**
 * The shipped English catalog, without the texts features carry (an instance's English is
 * {@link englishOf} its features; this floor imports no feature). For a page given no translator.
 */
export const ENGLISH_MESSAGES: Messages = core as Messages;

/** English with no overrides: what a page renders when it is given no translator. */
export const ENGLISH: Translator = createTranslator("en", []);
