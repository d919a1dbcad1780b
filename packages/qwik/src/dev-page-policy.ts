/**
 * authlib's pages under the app's Vite dev server. Qwik Router's (Qwik 2's) dev middleware rewrites every
 * HTML response of the app, these pages included: it adds Vite's client, Qwik's HMR bridge, the app's
 * global stylesheet and inline dev scripts and styles to their `<head>`. The pages' Content-Security-Policy
 * (their own inline style by hash, scripts of the app's origin only) blocks all of those, and the browser
 * reports each as an error on every page. So in development only, scripts and styles of the app's origin
 * and inline ones are allowed; every other directive stays, and a production build (`isDev` false) keeps the
 * strict policy. (Qwik City 1's dev server leaves the pages alone; one policy keeps both majors' builds the same.)
 */

/**
 * The value core's answer header `name` is sent with under the dev server: the page's policy with
 * `script-src` and `style-src` opened to the dev server's additions, every other header and directive as is.
 */
export function devPageHeader(name: string, value: string): string {
  return name === "Content-Security-Policy" ? value.replace(/\b(script|style)-src [^;]*/g, "$1-src 'self' 'unsafe-inline'") : value;
}
