import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Form, routeLoader$, useLocation } from "@builder.io/qwik-city";
import { demoAuthConfig } from "../../server/auth-config";
import { useSignIn } from "../plugin@auth";

/** The OAuth/OIDC providers configured (presets appear when their AUTH_<ID>_ID/SECRET are set). */
export const useOAuthProviders = routeLoader$((ev) =>
  demoAuthConfig(ev.env)
    .providers.map((provider) => (typeof provider === "function" ? provider() : provider))
    .filter((provider) => provider.type === "oauth" || provider.type === "oidc")
    .map(({ id, name }) => ({ id, name })),
);

/** Only same-site paths are passed on; authlib would refuse others anyway. */
function safeRedirect(value: string | null): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/profile";
}

export default component$(() => {
  const signIn = useSignIn();
  const providers = useOAuthProviders();
  const location = useLocation();
  const redirectTo = safeRedirect(location.url.searchParams.get("redirectTo"));
  const failure = signIn.value?.failed ? signIn.value : undefined;
  return (
    <>
      <h1>Sign in</h1>
      <p>
        This page belongs to the app and signs in with <code>useSignIn</code>. authlib also has a{" "}
        <a href={`/auth/signin?${new URLSearchParams({ callbackUrl: redirectTo })}`}>built-in sign-in page</a>.
      </p>
      <Form action={signIn} class="card stack" data-testid="signin-form">
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="options.redirectTo" value={redirectTo} />
        <label>
          Email <input name="options.email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <input name="options.password" type="password" autoComplete="current-password" required />
        </label>
        {failure && (
          <p role="alert" class="error" data-testid="signin-error">
            {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
            {failure.code && <span> (code: {failure.code})</span>}
          </p>
        )}
        <button type="submit" disabled={signIn.isRunning}>
          Sign in
        </button>
      </Form>
      {providers.value.map((provider) => (
        <Form key={provider.id} action={signIn} class="card">
          <input type="hidden" name="providerId" value={provider.id} />
          <input type="hidden" name="options.redirectTo" value={redirectTo} />
          <button type="submit">Sign in with {provider.name}</button>
        </Form>
      ))}
    </>
  );
});

export const head: DocumentHead = { title: "Sign in" };
