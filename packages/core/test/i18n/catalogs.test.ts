/**
 * Every shipped catalog is complete and consistent with English: exactly its keys, the same
 * `{placeholders}` in each text, nothing left empty or copied over untranslated where a language differs.
 */
import { describe, expect, it } from "vitest";
import { de } from "../../src/i18n/catalogs/de.js";
import { en } from "../../src/i18n/catalogs/en.js";
import { es } from "../../src/i18n/catalogs/es.js";
import { fr } from "../../src/i18n/catalogs/fr.js";
import { ja } from "../../src/i18n/catalogs/ja.js";
import { pt } from "../../src/i18n/catalogs/pt.js";
import { zh } from "../../src/i18n/catalogs/zh.js";
import { SHIPPED_LOCALES } from "../../src/i18n/locale.js";

const catalogs: Record<string, Record<string, string>> = { de, fr, es, pt, ja, zh };

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((match) => match[1] as string).sort();
}

describe("the shipped catalogs", () => {
  it("are the languages the chooser offers", () => {
    expect(["en", ...Object.keys(catalogs)].sort()).toEqual([...SHIPPED_LOCALES].sort());
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
