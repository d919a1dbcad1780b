/**
 * The guide's files as a Qwik 2 app has them: docs/getting-started.md's "Qwik 2" section says what changes
 * in a user's own files, and this is that rewrite, so the Qwik 2 app runs the guide's files rather than a
 * second copy of them. The module names are the package's own mapping (packages/qwik/scripts/qwik2.mjs).
 */
import { qwik2Source } from "../../packages/qwik/scripts/qwik2.mjs";
import { guideFilesFor } from "../guide.js";

/**
 * `text` in Qwik 2's names: `@builder.io/qwik…` → `@qwik.dev/core…`, `@builder.io/qwik-city…` →
 * `@qwik.dev/router…`, `@authlib/qwik` → `@authlib/qwik/qwik2`, and the adapters' global platform type
 * `QwikCityPlatform` → `QwikRouterPlatform`.
 */
export function toQwik2(text: string): string {
  return qwik2Source(text)
    .replace(/(["'])@authlib\/qwik\1/g, "$1@authlib/qwik/qwik2$1")
    .replace(/\bQwikCityPlatform\b/g, "QwikRouterPlatform");
}

/** {@link guideFilesFor}, each file in Qwik 2's names. */
export function qwik2GuideFiles(variant?: string): Map<string, string> {
  return new Map([...guideFilesFor(variant)].map(([path, text]) => [path, toQwik2(text)] as const));
}
