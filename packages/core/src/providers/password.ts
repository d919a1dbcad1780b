/**
 * Email-and-password accounts kept by authlib (docs/password.md): sign-up with a verified address,
 * sign-in, password reset by an emailed link, password change. The hash (scrypt, with its parameters:
 * see `@authlib/core/password`) lives in the user's `password` account row, so it moves with the
 * database between runtimes. Needs an adapter and a way to send mail: the configuration's email provider
 * (Nodemailer, Resend, SendGrid, Postmark, Mailgun), or `sendMail`.
 *
 * ```ts
 * createAuth({
 *   adapter: HostedDbAdapter(new HostedDbClient()),
 *   providers: [Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.test>" }), Password()],
 * });
 * ```
 *
 * Routes (all POSTs CSRF-checked): `POST <basePath>/password/sign-up` (`email`, `password`, `name`),
 * `POST <basePath>/callback/password` (`email`, `password`), `POST <basePath>/password/forgot` (`email`),
 * `POST <basePath>/password/reset` (`token`, `password`), `POST <basePath>/password/change`
 * (`currentPassword`, `password`); the same on `auth.api` (`signUp`, `signIn`, `requestPasswordReset`,
 * `resetPassword`, `changePassword`).
 *
 * @module providers/password
 */
import { AuthError } from "../errors.js";
import { passwordConfigError } from "../sign-in/password-config.js";
import { MAX_PASSWORD_LENGTH } from "../sign-in/password-rules.js";
import type { PasswordConfig, PasswordSettings } from "../types/providers.js";

/** Options of {@link Password}; every one has a default. */
export type PasswordOptions = Partial<PasswordSettings> & {
  /** Provider id (default `password`): the sign-in form posts to `<basePath>/callback/<id>`. */
  id?: string;
  /** Name shown on the sign-in page. Default "Password". */
  name?: string;
};

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
    throw new AuthError(`Password(): \`${name}\` must be a whole number from ${min} to ${max}.`);
  }
  return value as number;
}

/**
 * Makes the email-and-password provider (id `password`). Throws `AuthError` for a length rule that is
 * not a whole number, or a `minLength` above `maxLength`.
 */
export default function Password(options: PasswordOptions = {}): PasswordConfig {
  const minLength = wholeNumber(options.minLength ?? 8, "minLength", 1, MAX_PASSWORD_LENGTH);
  const maxLength = wholeNumber(options.maxLength ?? 128, "maxLength", minLength, MAX_PASSWORD_LENGTH);
  const settings: PasswordSettings = {
    minLength,
    maxLength,
    verificationMaxAge: wholeNumber(options.verificationMaxAge ?? 24 * 60 * 60, "verificationMaxAge", 60, 7 * 24 * 60 * 60),
    resetMaxAge: wholeNumber(options.resetMaxAge ?? 60 * 60, "resetMaxAge", 60, 24 * 60 * 60),
    ...(options.mailer === undefined ? {} : { mailer: options.mailer }),
    ...(options.sendMail === undefined ? {} : { sendMail: options.sendMail }),
  };
  const id = options.id ?? "password";
  return {
    id,
    name: options.name ?? "Password",
    type: "credentials",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username", required: true },
      password: { label: "Password", type: "password", autocomplete: "current-password", required: true },
    },
    // The callback route checks the password against the adapter itself (password-accounts/sign-in.ts).
    authorize: () => {
      throw new AuthError("The Password provider is checked by authlib's callback route; its authorize is not for apps to call.");
    },
    passwordAccounts: settings,
    checkConfig: (context) => passwordConfigError({ id, passwordAccounts: settings }, context),
  };
}
