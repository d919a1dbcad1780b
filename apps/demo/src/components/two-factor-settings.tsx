/**
 * The profile's "Two-step verification" section: an authenticator app (TOTP) turned on with its QR code
 * and turned off with a code (`useEnrollTotp`, `useConfirmTotp`, `useDisableTotp`, `useTwoFactorStatus`).
 * Turning it on or off needs a sign-in in the last 10 minutes: the actions send an older session to
 * sign in again, back here. The second step of a later sign-in is authlib's built-in page.
 */
import { component$ } from "@builder.io/qwik";
import { Form } from "@builder.io/qwik-city";
import { useConfirmTotp, useDisableTotp, useEnrollTotp, useTwoFactorStatus } from "../routes/plugin@auth";

/** The failure text of a settings action (its field error, else its form error), or `undefined`. */
function failureText(value: { failed?: boolean; formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> } | undefined) {
  if (!value?.failed) return undefined;
  return [...(value.formErrors ?? []), ...Object.values(value.fieldErrors ?? {}).flat()].join(" ");
}

export const TwoFactorSettings = component$(() => {
  const status = useTwoFactorStatus();
  const enroll = useEnrollTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const enrolled = enroll.value && !enroll.value.failed ? enroll.value : undefined;
  const recoveryCodes = confirm.value && !confirm.value.failed ? confirm.value.recoveryCodes : undefined;
  const problem = failureText(enroll.value) ?? failureText(confirm.value) ?? failureText(disable.value);
  const on = status.value?.totp === true;

  return (
    <section aria-labelledby="two-factor-heading" data-testid="two-factor">
      <h2 id="two-factor-heading">Two-step verification</h2>
      <p data-testid="two-factor-status">
        {on
          ? `Authenticator app: on. ${status.value?.recoveryCodes ?? 0} recovery codes left.`
          : "Authenticator app: off. Add one so that a password alone cannot sign in as you."}
      </p>
      {problem && (
        <p role="alert" class="error" data-testid="two-factor-error">
          {problem}
        </p>
      )}
      {recoveryCodes && (
        <div data-testid="recovery-codes">
          <p>Your authenticator app is on. Keep these recovery codes somewhere safe: each works once, and they are shown only now.</p>
          <ul class="codes">
            {recoveryCodes.map((code) => (
              <li key={code}>
                <code data-testid="recovery-code">{code}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!on && !recoveryCodes && !enrolled && (
        <Form action={enroll}>
          <button type="submit" disabled={enroll.isRunning}>
            Set up an authenticator app
          </button>
        </Form>
      )}
      {!on && enrolled && !recoveryCodes && (
        <div class="stack">
          <p>Scan this code with your authenticator app, or type the key by hand, then enter the 6 digits it shows.</p>
          {/* authlib's own SVG of the otpauth:// URI (no user markup in it). */}
          <div class="qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={enrolled.qrSvg} />
          <p>
            Key: <code data-testid="totp-secret">{enrolled.secret}</code>
          </p>
          <Form action={confirm} class="stack">
            <label for="totp-confirm-code">Code from the app</label>
            <input id="totp-confirm-code" name="code" inputMode="numeric" autoComplete="one-time-code" required maxLength={6} />
            <button type="submit" disabled={confirm.isRunning}>
              Turn on
            </button>
          </Form>
        </div>
      )}
      {on && (
        <Form action={disable} class="stack">
          <label for="totp-disable-code">Code from the app, or a recovery code</label>
          <input id="totp-disable-code" name="code" autoComplete="one-time-code" required maxLength={16} />
          <button type="submit" disabled={disable.isRunning}>
            Turn off
          </button>
        </Form>
      )}
    </section>
  );
});
