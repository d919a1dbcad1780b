/**
 * Email sign-in through Twilio SendGrid's v3 Mail Send API (`fetch`, no SDK). Set `AUTH_SENDGRID_KEY`
 * (or `apiKey`, an API key with "Mail Send" access) and a `from` address of a verified sender. For
 * SendGrid's EU region, set `baseUrl: "https://api.eu.sendgrid.com"`. Needs an adapter.
 *
 * API: https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 *
 * @module providers/sendgrid
 */
import { apiUrl, type MailService, type MailServiceConfig, mailServiceProvider, parseAddress } from "../email/mail-service.js";

/** Options of {@link SendGrid}: any email provider option, and `baseUrl` (default `https://api.sendgrid.com`). */
export type SendGridOptions = Partial<Omit<MailServiceConfig, "type">>;

/** `POST /v3/mail/send` with a Bearer API key; the text part must come before the HTML part. */
const sendgrid: MailService<MailServiceConfig> = {
  id: "sendgrid",
  name: "SendGrid",
  baseUrl: "https://api.sendgrid.com",
  request: (mail, provider) => ({
    url: apiUrl(provider.baseUrl, "/v3/mail/send"),
    headers: { authorization: `Bearer ${provider.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: mail.to }] }],
      from: parseAddress(mail.from),
      subject: mail.subject,
      content: [
        { type: "text/plain", value: mail.text },
        { type: "text/html", value: mail.html },
      ],
    }),
  }),
};

/** Makes a SendGrid email provider (id `sendgrid` unless set). */
export default function SendGrid(options: SendGridOptions = {}): MailServiceConfig {
  return mailServiceProvider(sendgrid, options);
}
