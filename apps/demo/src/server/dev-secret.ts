/**
 * A secret for running the demo without setting AUTH_SECRET: generated once, kept in a local file
 * (`.data/secret`, git-ignored) so sessions survive restarts, and announced with a warning.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const secretsByFile = new Map<string, string>();

/**
 * The local development secret from `<dataDir>/secret`, created on first use. `dataDir` defaults to
 * `DEMO_DATA_DIR` or `.data` in the working directory (apps/demo under `npm start`).
 */
export function localDevSecret(dataDir = process.env.DEMO_DATA_DIR ?? ".data"): string {
  const file = resolve(join(dataDir, "secret"));
  const known = secretsByFile.get(file);
  if (known) return known;
  let secret: string;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    secret = "";
  }
  if (secret.length < 32) {
    secret = randomBytes(32).toString("base64url");
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  }
  console.warn(
    `[authlib demo] AUTH_SECRET is not set: using a development secret kept in ${file}. Set AUTH_SECRET for anything but local development.`,
  );
  secretsByFile.set(file, secret);
  return secret;
}
