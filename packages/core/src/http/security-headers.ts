/**
 * The headers every page authlib renders is sent with. A sign-in or sign-out page inside someone else's
 * frame is a clickjacking target, and a cached one can show one person's state (or CSRF token) to the
 * next: so no framing (`X-Frame-Options` for old browsers, `frame-ancestors` for new ones) and no storing.
 *
 * The Content-Security-Policy allows only what the pages use: their one inline `<style>` (by hash, so no
 * injected style runs), images from the app or https (provider logos, the theme logo), and the library's
 * own passkey script from the app's origin. `form-action` is left out on purpose: a sign-in form posts to
 * authlib, which answers with a redirect to the provider, and browsers apply `form-action` to that redirect.
 *
 * `Referrer-Policy: same-origin` on every page, not only on the ones that carry a token in their URL today
 * (a reset, sign-up, email-change or sign-in link): a page that links out, loads an image from https or
 * posts to another origin would otherwise hand its own URL, token included, to that site in `Referer`.
 * One rule for every page cannot miss the next page that takes a `?token=`. Not `no-referrer`: under it a
 * browser sends the pages' own form posts with `Origin: null`, which the frameworks' own origin checks
 * (Qwik City 2's) refuse before authlib sees them; `same-origin` keeps the URL inside the app that made it.
 *
 * @module pages/security-headers
 */

const stylePattern = /<style>([\s\S]*?)<\/style>/;

/** `'sha256-…'` of the document's inline stylesheet, exactly as the browser reads it. */
async function styleHashSource(html: string): Promise<string | undefined> {
  const css = stylePattern.exec(html)?.[1];
  if (css === undefined) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(css)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

/** The Content-Security-Policy of a rendered page. */
export async function pageContentSecurityPolicy(html: string): Promise<string> {
  const style = await styleHashSource(html);
  return [
    "default-src 'none'",
    `style-src ${style ?? "'none'"}`,
    "img-src 'self' data: https:",
    "script-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** No framing, no caching, no referrer: for every response that is a page, or the script a page loads. */
export const unframeableNoStoreHeaders = {
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
} as const;

/** Every header a rendered HTML page is served with. */
export async function pageHeaders(html: string): Promise<Record<string, string>> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    ...unframeableNoStoreHeaders,
    "Content-Security-Policy": await pageContentSecurityPolicy(html),
  };
}
