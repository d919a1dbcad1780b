import { getSession } from "@authlib/qwik";
import { component$ } from "@builder.io/qwik";
import type { DocumentHead, RequestHandler } from "@builder.io/qwik-city";
import { useSession } from "../plugin@auth";

// Signed-out visitors go to the built-in sign-in page, and come back here afterwards.
export const onRequest: RequestHandler = async (ev) => {
  if (await getSession(ev)) return;
  throw ev.redirect(302, `/auth/signin?${new URLSearchParams({ callbackUrl: ev.url.pathname })}`);
};

export default component$(() => {
  const session = useSession();
  return (
    <>
      <h1>Protected</h1>
      <p data-testid="protected-content">
        Only signed-in users see this. Hello, {session.value?.user?.name ?? session.value?.user?.email}.
      </p>
    </>
  );
});

export const head: DocumentHead = { title: "Protected" };
