/**
 * Which language a request gets: the configuration's `locale`, else the request's `Accept-Language` (by
 * q-value, then order), each tag tried as written and then by its base language (`de-AT` → `de`), English
 * last. A header's text is only compared with the tags that have a catalog: it is never rendered, never a
 * path and never a property read off an object without an own-property check.
 *
 * @module i18n/locale
 */

/** The languages that ship with authlib (their catalogs load on first use). */
export const SHIPPED_LOCALES: readonly string[] = ["en", "de", "fr", "es", "pt", "ja", "zh"];

// Longer headers are cut: a browser sends a few dozen characters; nothing after this is read.
const MAX_HEADER_LENGTH = 512;
const MAX_ENTRIES = 16;
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** The tags of an `Accept-Language` header, best first (`*` and malformed entries dropped). */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; q: number; order: number }> = [];
  for (const [order, part] of header.slice(0, MAX_HEADER_LENGTH).split(",").slice(0, MAX_ENTRIES).entries()) {
    const [rawTag = "", ...params] = part.trim().split(";");
    const tag = rawTag.trim();
    if (!LANGUAGE_TAG.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(param);
      if (match) q = Number(match[1]);
    }
    if (q > 0) entries.push({ tag, q, order });
  }
  entries.sort((a, b) => b.q - a.q || a.order - b.order);
  return entries.map((entry) => entry.tag);
}

/**
 * The first of `candidates` that one of `available` matches (case-insensitively, as written or by its
 * base language), as the available tag spells it; `undefined` when none does.
 */
export function matchLocale(candidates: readonly string[], available: readonly string[]): string | undefined {
  const byLowerCase = new Map(available.map((tag) => [tag.toLowerCase(), tag]));
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const exact = byLowerCase.get(lower);
    if (exact !== undefined) return exact;
    const base = byLowerCase.get(lower.split("-")[0] ?? "");
    if (base !== undefined) return base;
  }
  return undefined;
}
