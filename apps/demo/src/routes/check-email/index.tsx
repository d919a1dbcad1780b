import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Form, Link, useLocation } from "@builder.io/qwik-city";
import { useEmailCode } from "../plugin@auth";

/** What each mail authlib sends after a form says (`?type=`); a sign-in mail (`email`) also takes its code here. */
const LEADS: Record<string, string> = {
  "password-sign-up": "We sent a message to the address you gave. Follow its link to finish creating your account.",
  "password-reset": "We sent a message to the address you gave. Follow its link to choose a new password.",
  "password-verified": "Your address is confirmed: sign in with your email address and password.",
};

/** The app's verify-request page (`pages.verifyRequest`): "check your email", and the mailed code's form. */
export default component$(() => {
  const emailCode = useEmailCode();
  const type = useLocation().url.searchParams.get("type") ?? "email";
  const failure = emailCode.value?.failed ? emailCode.value : undefined;
  const lead = LEADS[type];
  return (
    <>
      <h1>Check your email</h1>
      {lead ? (
        <p>{lead}</p>
      ) : (
        <>
          <p>We sent a sign-in link and a code. Follow the link, or type the code here (in this browser).</p>
          <Form action={emailCode} class="card stack" data-testid="email-code-form">
            <label>
              Code from the email{" "}
              <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 \-]{6,12}" maxLength={12} required />
            </label>
            {failure && (
              <p role="alert" class="error" data-testid="email-code-error">
                {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
              </p>
            )}
            <button type="submit" disabled={emailCode.isRunning}>
              Sign in
            </button>
          </Form>
        </>
      )}
      <p class="muted">
        The demo's development SMTP server receives the mail: open the <Link href="/dev/mailbox">mailbox</Link>.
      </p>
    </>
  );
});

export const head: DocumentHead = { title: "Check your email" };
