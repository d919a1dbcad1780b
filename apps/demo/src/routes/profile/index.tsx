import { $, component$, useSignal } from "@builder.io/qwik";
import { type DocumentHead, Link } from "@builder.io/qwik-city";
import { updateSession } from "../../components/update-session";
import { useSession } from "../plugin@auth";

export default component$(() => {
  const loaded = useSession();
  // The session as the server last answered it: the page's, then the update endpoint's.
  const session = useSignal(loaded.value);
  const status = useSignal("");

  // The name is read from the form when it is submitted, whatever has or has not run in the page before.
  const update = $(async (_event: SubmitEvent, form: HTMLFormElement) => {
    status.value = "Updating…";
    try {
      session.value = await updateSession({ name: String(new FormData(form).get("name") ?? "") });
      status.value = `Session updated: ${session.value?.user?.name ?? "(no name)"}`;
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
          Display name <input name="name" value={session.value.user?.name ?? ""} maxLength={64} />
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
