import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city";
import { DEMO_EMAIL, DEMO_PASSWORD, demoPasswordHash } from "../server/demo-user";
import { demoServices } from "../server/services";
import { useSession } from "./plugin@auth";

export const useDemoUser = routeLoader$(async () => ({
  email: DEMO_EMAIL,
  password: DEMO_PASSWORD,
  hash: await demoPasswordHash(),
}));

/** Where the demo's own services run. */
export const useDemoServices = routeLoader$(async () => {
  const { database, oidc, smtp } = await demoServices();
  return { database: database.location, issuer: oidc.issuer, smtpPort: smtp.port };
});

export default component$(() => {
  const demoUser = useDemoUser();
  const services = useDemoServices();
  const session = useSession();
  return (
    <>
      <h1>authlib demo</h1>
      <p>{session.value?.user ? `Signed in as ${session.value.user.email ?? session.value.user.name}.` : "You are signed out."}</p>
      <section class="card">
        <h2>Demo account</h2>
        <dl>
          <dt>Email</dt>
          <dd data-testid="demo-email">{demoUser.value.email}</dd>
          <dt>Password</dt>
          <dd data-testid="demo-password">{demoUser.value.password}</dd>
          <dt>Stored hash (scrypt, computed at start)</dt>
          <dd>
            <code class="hash">{demoUser.value.hash}</code>
          </dd>
        </dl>
      </section>
      <section class="card">
        <h2>Other ways to sign in</h2>
        <ul>
          <li>
            <strong>Demo OpenID Provider</strong>: an OpenID Provider started with the demo at <code>{services.value.issuer}</code>. Its
            login page takes any username.
          </li>
          <li>
            <strong>Email and password</strong>: <a href="/auth/password/sign-up?callbackUrl=%2Fprofile">create an account</a> of your own
            on authlib's built-in page. The confirmation mail goes to the <Link href="/dev/mailbox">mailbox</Link>; then sign in on the{" "}
            <Link href="/signin">sign-in page</Link> and change the password on your profile.
          </li>
          <li>
            <strong>Email link</strong>: the mail goes to the demo's development SMTP server (127.0.0.1:{services.value.smtpPort}); open the{" "}
            <Link href="/dev/mailbox">mailbox</Link> and click the link.
          </li>
          <li>
            <strong>Passkeys</strong>: register one, then sign in with it, on the <a href="/auth/signin">built-in sign-in page</a>.
          </li>
        </ul>
        <p class="muted">
          Users and sessions are kept in the database at <code>{services.value.database}</code> (database sessions).
        </p>
      </section>
      <ul>
        <li>
          <a href="/auth/signin">The built-in sign-in page</a> (authlib's, under <code>/auth</code>)
        </li>
        <li>
          <Link href="/signin">A sign-in page of the app</Link>, built with <code>useSignIn</code>
        </li>
        <li>
          {/* No prefetch: see the layout's Protected link. */}
          <Link href="/protected" prefetch={false}>
            A protected page
          </Link>
          : signed-out visitors are sent to sign in
        </li>
        <li>
          <Link href="/profile">The profile</Link>: the session, your active sessions, and a session update
        </li>
        <li>
          <Link href="/audit">The audit log</Link>: authlib's events as they happen
        </li>
        <li>
          <Link href="/dev/mailbox">The mailbox</Link>: the mails of the development SMTP server
        </li>
      </ul>
    </>
  );
});

export const head: DocumentHead = { title: "Home" };
