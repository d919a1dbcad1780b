/**
 * Email sign-in through Resend's API (`fetch`, no SDK). Set `AUTH_RESEND_KEY` (or `apiKey`) and a
 * `from` address on a domain verified in Resend. Needs an adapter, like every email provider.
 *
 * ```ts
 * Resend({ from: "Acme <no-reply@acme.test>" })
 * ```
 *
 * API: https://resend.com/docs/api-reference/emails/send-email
 *
 * @module providers/resend
 */
import { apiUrl, type MailService, type MailServiceConfig, mailServiceProvider } from "../email/mail-service.js";

/** Options of {@link Resend}: any email provider option, and `baseUrl` (default `https://api.resend.com`). */
export type ResendOptions = Partial<Omit<MailServiceConfig, "type">>;

/** `POST /emails` with a Bearer API key and a JSON body. */
const resend: MailService<MailServiceConfig> = {
  id: "resend",
  name: "Resend",
  baseUrl: "https://api.resend.com",
  request: (mail, provider) => ({
    url: apiUrl(provider.baseUrl, "/emails"),
    headers: { authorization: `Bearer ${provider.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ from: mail.from, to: [mail.to], subject: mail.subject, html: mail.html, text: mail.text }),
  }),
};

/** Makes a Resend email provider (id `resend` unless set). */
export default function Resend(options: ResendOptions = {}): MailServiceConfig {
  return mailServiceProvider(resend, options);
}
