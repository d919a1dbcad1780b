import { component$, Slot } from "@builder.io/qwik";
import { Form, Link, routeLoader$ } from "@builder.io/qwik-city";
import { chromeTextFor } from "../server/chrome-text";
import { useSession, useSignOut } from "./plugin@auth";

/** The demo's own cookie saying a session of this browser ended elsewhere, until it signs in again. */
const ENDED_MARK = "demo.session-ended";
const SESSION_COOKIES = ["authlib.session-token", "__Secure-authlib.session-token"];

/**
 * True when this browser's session was ended elsewhere: it sent a session cookie, and authlib found no
 * session for it (a revoke from another device, a password change; a database session's ended row and an
 * expired one look the same, so the page names both). Any request can be the first to find that out,
 * including Qwik's background fetch of a linked page's data, whose answer clears the session cookie: so
 * the finding is kept in the demo's own cookie (10 minutes, or until the next sign-in), and the next page
 * the browser loads still says it. The cookies are read as the browser sent them (`Cookie`), not from Qwik's
 * live jar, which authlib's session read, running beside this loader, clears.
 */
export const useSignedOutElsewhere = routeLoader$(async ({ cookie, method, request, resolveValue }) => {
  const sent = cookieNamesSent(request);
  if (await resolveValue(useSession)) {
    if (sent.has(ENDED_MARK)) cookie.delete(ENDED_MARK, { path: "/" });
    return false;
  }
  // A POST is an action of this browser: its own sign-out ends the session it sent, and says nothing.
  if (method === "GET" && SESSION_COOKIES.some((name) => sent.has(name))) {
    cookie.set(ENDED_MARK, "1", { path: "/", maxAge: 600, httpOnly: true, sameSite: "lax" });
    return true;
  }
  return sent.has(ENDED_MARK);
});

/** The names of the cookies the request carries. */
function cookieNamesSent(request: Request): Set<string> {
  const header = request.headers.get("cookie") ?? "";
  return new Set(header.split(";").map((pair) => pair.split("=", 1)[0]?.trim() ?? ""));
}

/** The header's words in the language authlib's pages use for this request (server/chrome-text.ts). */
export const useChromeText = routeLoader$(({ request }) => chromeTextFor(request.headers.get("accept-language")));

export default component$(() => {
  const session = useSession();
  const signOut = useSignOut();
  const user = session.value?.user;
  const text = useChromeText().value;
  const endedElsewhere = useSignedOutElsewhere().value;
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
          <Link href="/organizations">{text.organizations}</Link>
          {/* authlib's built-in admin pages (users, bans): the demo user is the demo's admin. */}
          {user ? <a href="/auth/admin">{text.admin}</a> : null}
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
        {!user && endedElsewhere && (
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
