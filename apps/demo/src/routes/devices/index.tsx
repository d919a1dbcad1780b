/**
 * "Signed-in devices": the signed-in user's sessions (useSessions), each with a button that ends it, and
 * one that ends all but this browser's (useRevokeSession). Ending this browser's own session signs it
 * out; the page then goes home.
 */
import type { ListedSession } from "@authlib/qwik";
import { component$, useTask$ } from "@builder.io/qwik";
import { isBrowser } from "@builder.io/qwik/build";
import { type DocumentHead, Form, Link, useNavigate } from "@builder.io/qwik-city";
import { useRevokeSession, useSessions } from "../plugin@auth";

/** A date as the page shows it: the same text on the server and in the browser, whatever their time zones. */
function shownDate(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** What the user recognises a device by. */
function deviceLabel(session: ListedSession): string {
  return session.userAgent ?? "Unknown device";
}

export default component$(() => {
  const listed = useSessions();
  const revoke = useRevokeSession();
  const nav = useNavigate();
  const { sessions, error } = listed.value;
  const failure = revoke.value?.failed ? revoke.value : undefined;

  // Ending this browser's own session signed it out (the page, rendered again, says so): go home, as a
  // sign-out does. Without scripts the page stays, showing the signed-out state.
  useTask$(({ track }) => {
    const revoked = track(() => revoke.value?.revoked);
    const signedOut = track(() => listed.value.error === "SessionRequired");
    if (isBrowser && revoked && signedOut) void nav("/");
  });

  if (error === "SessionRequired") {
    return (
      <>
        <h1>Signed-in devices</h1>
        <p>
          You are signed out. <Link href="/signin?redirectTo=/devices">Sign in</Link> to see the devices signed in as you.
        </p>
      </>
    );
  }
  if (sessions === null) {
    return (
      <>
        <h1>Signed-in devices</h1>
        <p role="alert" class="error" data-testid="devices-error">
          {error === "SessionRegistryMissing"
            ? "This configuration cannot list sessions (SessionRegistryMissing): its adapter has no session record methods."
            : "The sessions could not be listed (Configuration). The server log says why."}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Signed-in devices</h1>
      <p>Every browser signed in as you, most recently seen first. Signing a device out ends its session at once.</p>
      <div role="status" aria-live="polite" data-testid="revoke-status">
        {revoke.value?.revoked !== undefined &&
          `Signed out of ${revoke.value.revoked} ${revoke.value.revoked === 1 ? "device" : "devices"}.`}
      </div>
      {failure && (
        <p role="alert" class="error" data-testid="revoke-error">
          {[...(failure.formErrors ?? []), ...Object.values(failure.fieldErrors ?? {}).flat()].join(" ")}
          {failure.code && <span> ({failure.code})</span>}
        </p>
      )}
      <table data-testid="devices" class="cards">
        <caption class="muted">Devices signed in as you</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Network</th>
            <th scope="col">Signed in with</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last seen</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id} data-testid="device" data-current={session.current ? "true" : undefined}>
              <th scope="row" id={`device-${session.id}`}>
                {deviceLabel(session)}
                {session.current && (
                  <>
                    {" "}
                    <strong class="badge" data-testid="this-device">
                      This device
                    </strong>
                  </>
                )}
              </th>
              <td data-label="Network">{session.clientAddress ?? "Unknown"}</td>
              <td data-label="Signed in with">{session.provider ?? "Unknown"}</td>
              <td data-label="Signed in">
                <time dateTime={session.createdAt}>{shownDate(session.createdAt)}</time>
              </td>
              <td data-label="Last seen">
                <time dateTime={session.lastSeenAt}>{shownDate(session.lastSeenAt)}</time>
              </td>
              <td>
                <Form action={revoke}>
                  <input type="hidden" name="sessionId" value={session.id} />
                  <button type="submit" aria-describedby={`device-${session.id}`} disabled={revoke.isRunning}>
                    Sign out of this device
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Form action={revoke} class="stack devices-actions">
        <input type="hidden" name="all" value="others" />
        <button type="submit" disabled={revoke.isRunning || sessions.length < 2}>
          Sign out everywhere else
        </button>
      </Form>
    </>
  );
});

export const head: DocumentHead = { title: "Signed-in devices" };
