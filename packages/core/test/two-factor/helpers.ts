/**
 * The set-up of the second-factor tests: the Password() app of the password tests (hosted-db adapter on a
 * PGlite branch, a real SMTP server) with `twoFactor` on, its `auth.api`, and codes computed by an
 * independent TOTP implementation (`otpauth`), never by authlib's own.
 */
import * as OTPAuth from "otpauth";
import type { SessionStrategy } from "../../src/index.js";
import { createAuth } from "../../src/kernel/instance.js";
import type { AuthConfig } from "../../src/types/config.js";
import { type Browser, passwordApp, post, type Smtp, signIn, signUpAndVerify } from "../password/helpers.js";

export const PASSWORD = "correct horse battery staple";

/** The code `otpauth` computes for `secret` (base32) at `offsetSteps` steps from now. */
export function codeOf(secret: string, offsetSteps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** A code `secret` does not give in the steps around now: a wrong code, whatever the clock. */
export function wrongCodeFor(secret: string): string {
  return ["000000", "111111", "222222"].find((code) => ![-1, 0, 1, 2].some((offset) => codeOf(secret, offset) === code)) as string;
}

/** A request carrying `browser`'s cookies, for `auth.api`. */
export function requestOf(browser: Browser): Request {
  return new Request(`${browser.origin}/app`, { headers: { cookie: browser.jar.header() } });
}

/** The password app with `twoFactor` on, and its instance's API. */
export async function twoFactorApp(smtp: Smtp, options: { strategy?: SessionStrategy; config?: Partial<AuthConfig> } = {}) {
  const app = await passwordApp(smtp, {
    strategy: options.strategy,
    config: {
      twoFactor: {},
      // The session as it is: with its assurance fields.
      callbacks: { session: ({ session }) => session },
      ...options.config,
    },
  });
  const auth = createAuth(app.config);
  return { ...app, auth };
}

type App = Awaited<ReturnType<typeof twoFactorApp>>;

/** A user signed up (and in) in a new browser, with TOTP turned on: their secret and recovery codes. */
export async function userWithTotp(smtp: Smtp, app: App, email: string) {
  const browser = app.browser();
  await signUpAndVerify(smtp, browser, email, PASSWORD);
  const enrollment = await app.auth.api.enrollTotp(requestOf(browser));
  const { recoveryCodes } = await app.auth.api.confirmTotp(requestOf(browser), { code: codeOf(enrollment.secret) });
  return { browser, secret: enrollment.secret, recoveryCodes, enrollment };
}

/** Signs in with the password in a new browser: the answer (a redirect to the second step, for a user with TOTP). */
export async function firstFactor(app: App, email: string) {
  const browser = app.browser();
  const response = await signIn(browser, email, PASSWORD);
  return { browser, response };
}

/** POSTs `code` to the second step with the browser's CSRF token. */
export function secondStep(browser: Browser, code: string) {
  return post(browser, "/auth/two-factor", { code });
}
