/**
 * The guide's files as a Qwik 2 app has them: docs/getting-started.md's "Qwik 2" section says what changes
 * in a user's own files, and this is that rewrite, so the Qwik 2 app runs the guide's files rather than a
 * second copy of them. The module names are the package's own mapping (packages/qwik/scripts/qwik2.mjs).
 */
import { qwik2Source } from "../../packages/qwik/scripts/qwik2.mjs";
import { guideFilesFor } from "../guide.js";

/** What changes in a user's file on Qwik 2, as docs/getting-started.md's "Qwik 2" section lists it (guide.test.ts checks it does). */
export const QWIK2_RENAMES = [
  ["@authlib/qwik", "@authlib/qwik/qwik2"],
  ["@builder.io/qwik", "@qwik.dev/core"],
  ["@builder.io/qwik-city", "@qwik.dev/router"],
  ["QwikCityPlatform", "QwikRouterPlatform"],
] as const;

/** `text` with {@link QWIK2_RENAMES} applied: the Qwik module names by the package's own mapping, the rest here. */
export function toQwik2(text: string): string {
  return qwik2Source(text)
    .replace(/(["'])@authlib\/qwik\1/g, "$1@authlib/qwik/qwik2$1")
    .replace(/\bQwikCityPlatform\b/g, "QwikRouterPlatform");
}

/** {@link guideFilesFor}, each file in Qwik 2's names. */
export function qwik2GuideFiles(variant?: string): Map<string, string> {
  return new Map([...guideFilesFor(variant)].map(([path, text]) => [path, toQwik2(text)] as const));
}
