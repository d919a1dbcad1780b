/**
 * The script the sign-in page loads for passkeys: the `@simplewebauthn/browser` UMD bundle (embedded in
 * core at build time, see `scripts/embed-webauthn-browser.mjs`: no CDN, so the page works offline and
 * under `script-src 'self'`; no file system, so it works on every runtime), followed by the client script.
 *
 * @module webauthn/script-asset
 */
import { WEBAUTHN_CLIENT_SCRIPT } from "./client-script.js";

let loading: Promise<string> | undefined;

/** The served script. The embedded bundle is imported on first use, so bundlers keep it out of other routes. */
export function loadWebAuthnScript(): Promise<string> {
  loading ??= import("./browser-bundle.generated.js").then(
    ({ WEBAUTHN_BROWSER_BUNDLE }) => `${WEBAUTHN_BROWSER_BUNDLE}\n;${WEBAUTHN_CLIENT_SCRIPT}`,
  );
  return loading;
}
