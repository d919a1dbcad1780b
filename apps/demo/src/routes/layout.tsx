import { component$, Slot } from "@builder.io/qwik";
import { Form, Link, routeLoader$ } from "@builder.io/qwik-city";
import { chromeTextFor } from "../server/chrome-text";
import { useSession, useSignOut } from "./plugin@auth";

/**
 * True when the browser sent a session cookie: with no session for it, the session was ended elsewhere (a
 * revoke from another device, a password change) or ran out. Which of the two, authlib cannot tell for a
 * database session (an ended session's row is gone either way), so the page says both rather than guess.
 */
export const useHadSessionCookie = routeLoader$(({ cookie }) =>
  // `live: false`: the cookie the browser sent. The live jar drops it as soon as `useSession`, which runs
  // beside this loader, clears the ended session's cookie, so the notice came and went with their order.
  ["authlib.session-token", "__Secure-authlib.session-token"].some((name) => cookie.has(name, false)),
);

/** The header's words in the language authlib's pages use for this request (server/chrome-text.ts). */
export const useChromeText = routeLoader$(({ request }) => chromeTextFor(request.headers.get("accept-language")));

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  const user = session.value?.user;
  const text = useChromeText().value;
  const hadSession = useHadSessionCookie().value;
  return (
    <>
      <header class="bar" lang={text.lang}>
        <nav>
          <Link href="/">{text.home}</Link>
          {/* No prefetch: for a signed-out visitor, fetching /protected's data in the background ends on the
              sign-in page with ?callbackUrl=/protected, which would replace the callback URL of a sign-in
              under way (an OpenID Provider round trip would then return to /protected). */}
          <Link href="/protected" prefetch={false}>
            {text.protected}
          </Link>
          <Link href="/profile">{text.profile}</Link>
          {/* authlib's built-in account page: the second factor, passkeys, sign-in methods, deleting the account. */}
          <a href="/auth/account">{text.account}</a>
          <Link href="/devices">{text.devices}</Link>
          <Link href="/audit">{text.audit}</Link>
          <Link href="/dev/mailbox">{text.mailbox}</Link>
        </nav>
        {user ? (
          <Form action={signOut} class="who">
            <input type="hidden" name="redirectTo" value="/" />
            <span data-testid="signed-in-as">{user.email ?? user.name}</span>
            <button type="submit">{text.signOut}</button>
          </Form>
        ) : (
          <span class="who">
            <Link href="/signin">{text.signIn}</Link>
            <a href="/auth/signin">{text.builtInSignIn}</a>
          </span>
        )}
      </header>
      <main>
        {!user && hadSession && (
          <p class="notice" role="status" data-testid="signed-out-elsewhere">
            This browser was signed out: its session was ended from another device (or by a password change), or it expired. Sign in again
            to go on.
          </p>
        )}
        <Slot />
      </main>
    </>
  );
});
