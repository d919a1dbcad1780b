/**
 * The credentials provider: sign-in with whatever your app checks in `authorize` (a username and
 * password, a one-time code…). Store passwords hashed: see `hashPassword`/`verifyPassword` in
 * `@authlib/core/password`.
 *
 * ```ts
 * Credentials({
 *   credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await db.findUser(String(email));
 *     return user && (await verifyPassword(String(password), user.passwordHash)) ? user : null;
 *   },
 * })
 * ```
 *
 * `authorize` receives text only, as a form posts it: a declared field (or `email` / `username`, which
 * name the account the limits count) sent as anything else by a JSON body (an array, an object, a
 * number…) is refused as `CredentialsSignin` before `authorize` runs. An array must not reach an
 * `authorize` that calls `String()` on it while the per-account lockout, which counts strings only,
 * looks the other way.
 */
import type { CredentialInput, CredentialsConfig } from "../types/providers.js";

/** Options of {@link Credentials}: `authorize` is required; `id`, `name`, `credentials` have defaults. */
export type CredentialsOptions<C extends Record<string, CredentialInput>> = Partial<Omit<CredentialsConfig<C>, "type" | "authorize">> &
  Pick<CredentialsConfig<C>, "authorize">;

/** Makes a credentials provider (id `credentials` unless set). */
export default function Credentials<C extends Record<string, CredentialInput> = Record<string, CredentialInput>>(
  options: CredentialsOptions<C>,
): CredentialsConfig<C> {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {} as C,
    ...options,
    type: "credentials",
  };
}

/** Fields whose value names the account the credentials limits count, whether declared or not. */
const ACCOUNT_FIELDS = ["email", "username"];

/**
 * The fields of `credentials` that must be text and are not: each field the provider declares, and
 * `email` / `username`. A missing field is not malformed (`authorize` decides about it). Used by the
 * credentials callback; not meant for apps.
 *
 * @internal
 */
export function malformedCredentialFields(
  provider: Pick<CredentialsConfig, "credentials">,
  credentials: Record<string, unknown>,
): string[] {
  const fields = new Set([...Object.keys(provider.credentials ?? {}), ...ACCOUNT_FIELDS]);
  return [...fields].filter((field) => Object.hasOwn(credentials, field) && typeof credentials[field] !== "string");
}
