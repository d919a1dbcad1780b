import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Form, Link, routeLoader$, useLocation } from "@builder.io/qwik-city";
import { demoAuthConfig } from "../../server/auth-config";
import { demoServices } from "../../server/services";
import { useSignIn } from "../plugin@auth";

/**
 * The sign-in methods configured: OAuth/OIDC buttons (the development OP, and presets when their
 * AUTH_<ID>_ID/SECRET are set), the email provider, and whether passkeys are on.
 */
export const useSignInMethods = routeLoader$(async (ev) => {
  const providers = demoAuthConfig(ev.env, await demoServices()).providers.map((provider) =>
    typeof provider === "function" ? provider() : provider,
  );
  const email = providers.find((provider) => provider.type === "email");
  const password = providers.find((provider) => provider.type === "credentials" && "passwordAccounts" in provider);
  return {
    oauth: providers.filter((provider) => provider.type === "oauth" || provider.type === "oidc").map(({ id, name }) => ({ id, name })),
    email: email ? { id: email.id, name: email.name } : null,
    password: password ? { id: password.id } : null,
    passkey: providers.some((provider) => provider.type === "webauthn"),
  };
});

/** Only same-site paths are passed on; authlib would refuse others anyway. */
function safeRedirect(value: string | null): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/profile";
}

export default component$(() => {
  const signIn = useSignIn();
  const methods = useSignInMethods();
  const location = useLocation();
  const redirectTo = safeRedirect(location.url.searchParams.get("redirectTo"));
  const builtInPage = `/auth/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`;
  const submitted = signIn.formData?.get("providerId");
  const failure = signIn.value?.failed ? signIn.value : undefined;
  const email = methods.value.email;
  const password = methods.value.password;
  // The built-in password pages bring the visitor back here after confirming the address or a reset.
  const passwordPages = `?${new URLSearchParams({ callbackUrl: redirectTo })}`;
  return (
    <>
      <h1>Sign in</h1>
      <p>
        This page belongs to the app and signs in with <code>useSignIn</code>. authlib also has a{" "}
        <a href={builtInPage}>built-in sign-in page</a>.
      </p>
      <Form action={signIn} class="card stack" data-testid="signin-form">
        <h2>Demo account</h2>
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="options.redirectTo" value={redirectTo} />
        <label>
          Email <input name="options.email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <input name="options.password" type="password" autoComplete="current-password" required />
        </label>
        {failure && submitted === "credentials" && (
          <p role="alert" class="error" data-testid="signin-error">
            {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
            {failure.code && <span> (code: {failure.code})</span>}
          </p>
        )}
        <button type="submit" disabled={signIn.isRunning}>
          Sign in
        </button>
      </Form>
      {password && (
        <Form action={signIn} class="card stack" data-testid="password-signin-form">
          <h2>Email and password</h2>
          <p class="muted">
            An account of your own (the <code>Password()</code> provider).{" "}
            <a href={`/auth/password/sign-up${passwordPages}`}>Create an account</a>
            {" · "}
            <a href={`/auth/password/forgot${passwordPages}`}>Forgot your password?</a>
          </p>
          <input type="hidden" name="providerId" value={password.id} />
          <input type="hidden" name="options.redirectTo" value={redirectTo} />
          <label>
            Email <input name="options.email" type="email" autoComplete="username" required />
          </label>
          <label>
            Password <input name="options.password" type="password" autoComplete="current-password" required />
          </label>
          {failure && submitted === password.id && (
            <p role="alert" class="error" data-testid="password-signin-error">
              {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
            </p>
          )}
          <button type="submit" disabled={signIn.isRunning}>
            Sign in
          </button>
        </Form>
      )}
      {email && (
        <Form action={signIn} class="card stack" data-testid="email-signin-form">
          <h2>Email link</h2>
          <input type="hidden" name="providerId" value={email.id} />
          <input type="hidden" name="options.redirectTo" value={redirectTo} />
          <label>
            Email address <input name="options.email" type="email" autoComplete="email" required />
          </label>
          {failure && submitted === email.id && (
            <p role="alert" class="error">
              {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
            </p>
          )}
          <button type="submit" disabled={signIn.isRunning}>
            Send me a sign-in link
          </button>
          <p class="muted">
            The demo's development SMTP server receives the mail: open the <Link href="/dev/mailbox">mailbox</Link> to click the link.
          </p>
        </Form>
      )}
      {methods.value.oauth.map((provider) => (
        <Form key={provider.id} action={signIn} class="card">
          <input type="hidden" name="providerId" value={provider.id} />
          <input type="hidden" name="options.redirectTo" value={redirectTo} />
          <button type="submit">Sign in with {provider.name}</button>
        </Form>
      ))}
      {methods.value.passkey && (
        <section class="card">
          <h2>Passkeys</h2>
          <p>
            Register a passkey or sign in with one on the <a href={builtInPage}>built-in sign-in page</a>, which brings authlib's passkey
            script.
          </p>
        </section>
      )}
    </>
  );
});

export const head: DocumentHead = { title: "Sign in" };
