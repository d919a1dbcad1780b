/**
 * The script the sign-in page loads for passkeys: the `@simplewebauthn/browser` UMD bundle, read from the
 * installed package (no CDN, so the page works offline and under `script-src 'self'`), followed by the
 * client script. Read once per process; Node-only (on other runtimes the route answers an error).
 *
 * @module webauthn/script-asset
 */
import { InvalidProvider } from "../errors.js";
import { WEBAUTHN_CLIENT_SCRIPT } from "./client-script.js";

/** The bundle inside the package (the file unpkg serves). */
const BUNDLE_PATH = "dist/bundle/index.umd.min.js";

let loading: Promise<string> | undefined;

async function readBundle(): Promise<string> {
  const [{ createRequire }, { readFile }, { dirname, join }] = await Promise.all([
    import("node:module"),
    import("node:fs/promises"),
    import("node:path"),
  ]);
  // The package exports only its entry points: find its folder through the CommonJS entry
  // (`<package>/script/index.js`), then read the bundle next to it.
  const entry = createRequire(import.meta.url).resolve("@simplewebauthn/browser");
  return readFile(join(dirname(dirname(entry)), BUNDLE_PATH), "utf8");
}

/**
 * The served script. Throws `InvalidProvider` (a configuration error) when `@simplewebauthn/browser` is
 * not installed or cannot be read.
 */
export function loadWebAuthnScript(): Promise<string> {
  loading ??= readBundle().then(
    (bundle) => `${bundle}\n;${WEBAUTHN_CLIENT_SCRIPT}`,
    (error: unknown) => {
      loading = undefined;
      throw new InvalidProvider(
        "The passkey sign-in page needs the @simplewebauthn/browser package: run `npm install @simplewebauthn/browser`.",
        {
          cause: error as Error,
        },
      );
    },
  );
  return loading;
}
