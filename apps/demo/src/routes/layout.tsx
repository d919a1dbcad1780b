import { component$, Slot } from "@builder.io/qwik";
import { Form, Link } from "@builder.io/qwik-city";
import { useSession, useSignOut } from "./plugin@auth";

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  const user = session.value?.user;
  return (
    <>
      <header class="bar">
        <nav>
          <Link href="/">Home</Link>
          {/* No prefetch: for a signed-out visitor, fetching /protected's data in the background ends on the
              sign-in page with ?callbackUrl=/protected, which would replace the callback URL of a sign-in
              under way (an OpenID Provider round trip would then return to /protected). */}
          <Link href="/protected" prefetch={false}>
            Protected
          </Link>
          <Link href="/profile">Profile</Link>
          {/* authlib's built-in account page: the second factor, passkeys, sign-in methods, deleting the account. */}
          <a href="/auth/account">Account</a>
          <Link href="/devices">Devices</Link>
          <Link href="/audit">Audit</Link>
          <Link href="/dev/mailbox">Mailbox</Link>
        </nav>
        {user ? (
          <Form action={signOut} class="who">
            <input type="hidden" name="redirectTo" value="/" />
            <span data-testid="signed-in-as">{user.email ?? user.name}</span>
            <button type="submit">Sign out</button>
          </Form>
        ) : (
          <span class="who">
            <Link href="/signin">Sign in</Link>
            <a href="/auth/signin">Built-in sign-in page</a>
          </span>
        )}
      </header>
      <main>
        <Slot />
      </main>
    </>
  );
});
