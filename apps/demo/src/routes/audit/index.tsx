import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city";
import { listEvents } from "../../server/audit-log";
import { onlyLocalClients } from "../../server/dev-tools";
import { demoServices } from "../../server/services";

/** The audit log shows who signed in: a development tool, for local clients only. */
export const onRequest = onlyLocalClients;

export const useAuditLog = routeLoader$(async () => {
  const { database } = await demoServices();
  return listEvents(database.client, database.adapter);
});

export default component$(() => {
  const log = useAuditLog();
  return (
    <>
      <h1>Audit log</h1>
      <p>
        authlib's audit trail (<code>audit: {"{ store: hostedDbAuditStore(client) }"}</code>), newest first, as stored in the database.
        Session reads are not audited.{" "}
        <Link href="/audit" reload>
          Refresh
        </Link>
      </p>
      {log.value.length === 0 ? (
        <p>No events yet. Sign in to see some.</p>
      ) : (
        <table data-testid="audit-log" class="cards">
          <thead>
            <tr>
              <th>#</th>
              <th>Time</th>
              <th>Event</th>
              <th>User</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {log.value.map((entry) => (
              <tr key={entry.id}>
                <td data-label="#">{entry.id}</td>
                <td data-label="Time">
                  <time dateTime={entry.at}>{entry.at}</time>
                </td>
                <td data-label="Event" class="nowrap">
                  {entry.event}
                </td>
                <td data-label="User">{entry.subject}</td>
                <td data-label="Detail">{entry.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
});

export const head: DocumentHead = { title: "Audit" };
