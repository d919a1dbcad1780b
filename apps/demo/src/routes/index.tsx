import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city";
import { DEMO_EMAIL, DEMO_PASSWORD, demoPasswordHash } from "../server/demo-user";
import { useSession } from "./plugin@auth";

export const useDemoUser = routeLoader$(async () => ({
  email: DEMO_EMAIL,
  password: DEMO_PASSWORD,
  hash: await demoPasswordHash(),
}));

export default component$(() => {
  const demoUser = useDemoUser();
  const session = useSession();
  return (
    <>
      <h1>authlib demo</h1>
      <p>{session.value?.user ? `Signed in as ${session.value.user.email}.` : "You are signed out."}</p>
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
      <ul>
        <li>
          <a href="/auth/signin">The built-in sign-in page</a> (authlib's, under <code>/auth</code>)
        </li>
        <li>
          <Link href="/signin">A sign-in page of the app</Link>, built with <code>useSignIn</code>
        </li>
        <li>
          <Link href="/protected">A protected page</Link>: signed-out visitors are sent to sign in
        </li>
        <li>
          <Link href="/profile">The profile</Link>: the session, and a session update
        </li>
        <li>
          <Link href="/audit">The audit log</Link>: authlib's events as they happen
        </li>
      </ul>
    </>
  );
});

export const head: DocumentHead = { title: "Home" };
