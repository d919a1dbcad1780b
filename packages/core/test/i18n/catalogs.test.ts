/**
 * Every shipped catalog is complete and consistent with English: exactly its keys, the same
 * `{placeholders}` in each text, nothing left empty or copied over untranslated where a language differs.
 * A language's catalog is what a request gets: the shipped one and the texts each built-in feature carries
 * (`FeatureDefinition.messages`); English likewise.
 */
import { describe, expect, it } from "vitest";
import { de } from "../../src/i18n/catalogs/de.js";
import { es } from "../../src/i18n/catalogs/es.js";
import { fr } from "../../src/i18n/catalogs/fr.js";
import { ja } from "../../src/i18n/catalogs/ja.js";
import { pt } from "../../src/i18n/catalogs/pt.js";
import { zh } from "../../src/i18n/catalogs/zh.js";
import { SHIPPED_LOCALES } from "../../src/i18n/locale.js";
import { englishOf } from "../../src/i18n/translator.js";
import { everyBuiltInFeature } from "../../src/kernel/features.js";

// Every built-in feature, the on-demand ones (organizations, the authorization server) loaded.
const builtInFeatures = await everyBuiltInFeature();

import type { FeatureTexts } from "../../src/types/i18n.js";

const features = builtInFeatures.flatMap((feature) => (feature.messages ? [feature.messages] : []));
const en: Record<string, string> = { ...(await englishOf(features)) };

/** The shipped catalog of `locale` with every built-in feature's texts in that language. */
async function withFeatures(locale: string, shipped: object): Promise<Record<string, string>> {
  const texts = await Promise.all(features.map((feature: FeatureTexts) => feature[locale]?.()));
  return Object.assign({}, shipped, ...texts);
}

const catalogs: Record<string, Record<string, string>> = Object.fromEntries(
  await Promise.all(
    Object.entries({ de, fr, es, pt, ja, zh }).map(async ([locale, shipped]) => [locale, await withFeatures(locale, shipped)]),
  ),
);

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((match) => match[1] as string).sort();
}

describe("the shipped catalogs", () => {
  it("are the languages the chooser offers", () => {
    expect(["en", ...Object.keys(catalogs)].sort()).toEqual([...SHIPPED_LOCALES].sort());
  });

  it("take the built-in features' texts: the second factor's are in every language", () => {
    expect(features.length).toBeGreaterThan(0);
    for (const catalog of [en, ...Object.values(catalogs)]) expect(catalog["twoFactor.title"]).toEqual(expect.any(String));
  });

  it.each(features.flatMap((feature) => Object.keys(feature)))("a feature's %s texts are a shipped language", (locale) => {
    expect(SHIPPED_LOCALES).toContain(locale);
  });

  it.each(Object.keys(catalogs))("%s has exactly the English keys", (locale) => {
    expect(Object.keys(catalogs[locale] as object).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(Object.keys(catalogs))("%s keeps every text's {placeholders}, and no text is empty", (locale) => {
    const catalog = catalogs[locale] as Record<string, string>;
    const mismatched = Object.entries(en)
      .filter(([key, text]) => JSON.stringify(placeholders(catalog[key] ?? "")) !== JSON.stringify(placeholders(text)))
      .map(([key]) => key);
    expect(mismatched).toEqual([]);
    expect(Object.entries(catalog).filter(([, text]) => text.trim() === "")).toEqual([]);
  });

  it.each(Object.keys(catalogs))("%s is translated: at most a few texts equal the English one (names, loanwords)", (locale) => {
    const catalog = catalogs[locale] as Record<string, string>;
    const same = Object.entries(en).filter(([key, text]) => catalog[key] === text && !key.endsWith("Placeholder"));
    // "Passkeys", "Name", "Error", "E-Mail" are the same word in some languages; a forgotten page would be dozens.
    expect(same.length, same.map(([key]) => key).join(", ")).toBeLessThanOrEqual(3);
  });
});
