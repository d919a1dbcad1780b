import { component$ } from "@builder.io/qwik";
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city";
import { demoServices } from "../../../server/services";

/** The mails the development SMTP server received, newest first. */
export const useMailbox = routeLoader$(async () => {
  const services = await demoServices();
  return { port: services.smtp.port, mails: services.smtp.mailbox.list() };
});

/**
 * The HTML part is untrusted: it is shown only inside a sandboxed frame (no scripts, no forms, an
 * opaque origin) and under a policy that loads nothing from the network.
 */
const MAIL_HTML_POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;

export default component$(() => {
  const mailbox = useMailbox();
  return (
    <>
      <h1>Mailbox</h1>
      <p class="notice">
        A development tool of the demo, not part of authlib: every mail sent to the demo's SMTP server (127.0.0.1:{mailbox.value.port})
        lands here instead of in a real inbox, so email sign-in works without a mail account. Anyone who can open this page can use the
        links in it: never run it on a shared server.
      </p>
      <p>
        {mailbox.value.mails.length} mail{mailbox.value.mails.length === 1 ? "" : "s"}, newest first, kept in memory since the server
        started.{" "}
        <Link href="/dev/mailbox" reload>
          Refresh
        </Link>
      </p>
      {mailbox.value.mails.length === 0 && (
        <p>
          No mail yet. Ask for a sign-in link on the <Link href="/signin">sign-in page</Link>.
        </p>
      )}
      {mailbox.value.mails.map((mail) => (
        <article key={mail.id} class="card" data-testid="mail">
          <p class="badge" data-testid="mail-kind">
            {mail.kind.label}
          </p>
          <h2 data-testid="mail-subject">{mail.subject}</h2>
          <dl>
            <dt>To</dt>
            <dd data-testid="mail-to">{mail.to}</dd>
            <dt>From</dt>
            <dd>{mail.from}</dd>
            <dt>Date</dt>
            <dd>{mail.date ?? mail.receivedAt}</dd>
          </dl>
          {mail.signInLink ? (
            <p>
              <a href={mail.signInLink} data-testid="mail-link">
                {mail.kind.action}
              </a>
            </p>
          ) : (
            <p class="muted">No link in this mail.</p>
          )}
          {mail.code && (
            <p>
              Code: <strong data-testid="mail-code">{mail.code}</strong> <span class="muted">(or the link: whichever is used first)</span>
            </p>
          )}
          <details>
            <summary>Text part</summary>
            <pre class="mail-text">{mail.text}</pre>
          </details>
          {mail.html !== null && (
            <details>
              <summary>HTML part (sandboxed)</summary>
              <iframe
                class="mail-html"
                title={`HTML part of "${mail.subject}"`}
                sandbox=""
                referrerPolicy="no-referrer"
                srcdoc={MAIL_HTML_POLICY + mail.html}
              />
            </details>
          )}
        </article>
      ))}
    </>
  );
});

export const head: DocumentHead = { title: "Mailbox" };
