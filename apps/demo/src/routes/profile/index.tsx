import { $, component$, useSignal } from "@builder.io/qwik";
import { type DocumentHead, Link, useNavigate } from "@builder.io/qwik-city";
import { updateSession } from "../../components/update-session";
import { useSession } from "../plugin@auth";

export default component$(() => {
  const session = useSession();
  const navigate = useNavigate();
  const name = useSignal(session.value?.user?.name ?? "");
  const status = useSignal("");

  const update = $(async () => {
    status.value = "Updating…";
    try {
      const updated = await updateSession({ name: name.value });
      status.value = `Session updated: ${updated?.user?.name ?? "(no name)"}`;
      // Reload the route's loaders, so the session below is the one the server now reads from the cookie.
      await navigate();
    } catch (error) {
      status.value = error instanceof Error ? error.message : String(error);
    }
  });

  if (!session.value) {
    return (
      <>
        <h1>Profile</h1>
        <p>
          You are signed out. <Link href="/signin?redirectTo=/profile">Sign in</Link> to see your session.
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Profile</h1>
      <p>
        Name: <strong data-testid="profile-name">{session.value.user?.name}</strong>
      </p>
      <h2>Session</h2>
      <pre data-testid="session-json">{JSON.stringify(session.value, null, 2)}</pre>
      <h2>Update the session</h2>
      <form preventdefault:submit onSubmit$={update} class="stack">
        <label>
          Display name <input name="name" bind:value={name} maxLength={64} />
        </label>
        <button type="submit">Update session</button>
        <p data-testid="update-status" aria-live="polite">
          {status.value}
        </p>
      </form>
    </>
  );
});

export const head: DocumentHead = { title: "Profile" };
