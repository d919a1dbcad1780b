/**
 * `authlib secret`: a strong `AUTH_SECRET` (32 random bytes, base64url), printed or added to an env
 * file. Adding never overwrites an `AUTH_SECRET` that is already there unless asked to (`--force`):
 * replacing it signs every user out.
 *
 * @module cli/secret
 */
import { readFile, writeFile } from "node:fs/promises";

/** Random bytes in a generated secret: the minimum authlib accepts in production. */
export const SECRET_BYTES = 32;

/** A new secret: {@link SECRET_BYTES} bytes from the system's CSPRNG, base64url (43 characters, no padding). */
export function generateSecret(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(SECRET_BYTES))).toString("base64url");
}

/** What {@link addSecretToEnvFile} did. */
export type EnvFileChange = "created" | "appended" | "replaced" | "kept";

/** `AUTH_SECRET=…` (optionally `export`ed) with a value, as dotenv files write it. */
const SECRET_LINE = /^(\s*(?:export\s+)?AUTH_SECRET\s*=)(.*)$/m;

/**
 * Adds `AUTH_SECRET=<secret>` to the env file at `path` (created with mode 0600 when missing). An
 * existing non-empty `AUTH_SECRET` is kept (`"kept"`) unless `force`, which replaces that line in
 * place; an empty one (`AUTH_SECRET=`) is filled. Other lines are never touched.
 */
export async function addSecretToEnvFile(path: string, secret: string, force: boolean): Promise<EnvFileChange> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    await writeFile(path, `AUTH_SECRET=${secret}\n`, { mode: 0o600, flag: "wx" });
    return "created";
  }
  const existing = SECRET_LINE.exec(text);
  if (existing) {
    const value = (existing[2] ?? "").trim().replace(/^(["'])(.*)\1$/, "$2");
    if (value !== "" && !force) return "kept";
    await writeFile(
      path,
      text.replace(SECRET_LINE, (_, key: string) => `${key}${secret}`),
    );
    return value === "" ? "appended" : "replaced";
  }
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  await writeFile(path, `${text}${separator}AUTH_SECRET=${secret}\n`);
  return "appended";
}
