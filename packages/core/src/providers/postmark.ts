/**
 * Email sign-in through Postmark's API (`fetch`, no SDK). Set `AUTH_POSTMARK_KEY` (or `apiKey`, a
 * Server API token) and a `from` address of a confirmed sender signature. Mails go to the
 * `outbound` transactional stream unless `messageStream` is set. Needs an adapter.
 *
 * API: https://postmarkapp.com/developer/api/email-api#send-a-single-email
 *
 * @module providers/postmark
 */
import { apiUrl, type MailService, type MailServiceConfig, mailServiceProvider } from "../email/mail-service.js";

/** A Postmark email provider: the mail service options plus the message stream. */
export interface PostmarkConfig extends MailServiceConfig {
  /** The message stream to send through. Default `outbound`. */
  messageStream?: string;
}

/** Options of {@link Postmark}: any email provider option, `baseUrl` (default `https://api.postmarkapp.com`), `messageStream`. */
export type PostmarkOptions = Partial<Omit<PostmarkConfig, "type">>;

/** `POST /email` with the server token in `X-Postmark-Server-Token` and a JSON body. */
const postmark: MailService<PostmarkConfig> = {
  id: "postmark",
  name: "Postmark",
  baseUrl: "https://api.postmarkapp.com",
  request: (mail, provider) => ({
    url: apiUrl(provider.baseUrl, "/email"),
    headers: { "x-postmark-server-token": provider.apiKey, accept: "application/json", "content-type": "application/json" },
    body: JSON.stringify({
      From: mail.from,
      To: mail.to,
      Subject: mail.subject,
      HtmlBody: mail.html,
      TextBody: mail.text,
      MessageStream: provider.messageStream ?? "outbound",
    }),
  }),
};

/** Makes a Postmark email provider (id `postmark` unless set). */
export default function Postmark(options: PostmarkOptions = {}): PostmarkConfig {
  return mailServiceProvider(postmark, options);
}
