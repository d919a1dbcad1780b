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
 */
import type { CredentialInput, CredentialsConfig } from "../provider-types.js";

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
