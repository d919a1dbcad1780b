/**
 * Email sign-in through Mailgun's Messages API (`fetch`, no SDK). Set `AUTH_MAILGUN_KEY` (or `apiKey`),
 * the sending `domain` and a `from` address on it. Domains in Mailgun's EU region need
 * `region: "eu"` (or an explicit `baseUrl`). Needs an adapter.
 *
 * ```ts
 * Mailgun({ domain: "mg.acme.test", from: "Acme <no-reply@mg.acme.test>", region: "eu" })
 * ```
 *
 * API: https://documentation.mailgun.com/docs/mailgun/api-reference/openapi-final/tag/Messages/
 *
 * @module providers/mailgun
 */

import { apiUrl, type MailService, type MailServiceConfig, mailServiceProvider } from "../email/mail-service.js";
import { AuthError } from "../errors.js";

/** Mailgun's API origins per region (https://documentation.mailgun.com/docs/mailgun/api-reference/#base-url). */
export const MAILGUN_BASE_URLS = { us: "https://api.mailgun.net", eu: "https://api.eu.mailgun.net" } as const;

/** A Mailgun email provider: the mail service options plus the sending domain. */
export interface MailgunConfig extends MailServiceConfig {
  /** The sending domain registered in Mailgun, e.g. `mg.acme.test`. */
  domain: string;
}

/** Options of {@link Mailgun}: `domain` is required; `region` picks the API origin unless `baseUrl` is set. */
export type MailgunOptions = Partial<Omit<MailgunConfig, "type">> & { domain: string; region?: "us" | "eu" };

/** `POST /v3/<domain>/messages` with HTTP Basic `api:<key>` and a form body. */
const mailgun: MailService<MailgunConfig> = {
  id: "mailgun",
  name: "Mailgun",
  baseUrl: MAILGUN_BASE_URLS.us,
  request: (mail, provider) => ({
    url: apiUrl(provider.baseUrl, `/v3/${encodeURIComponent(provider.domain)}/messages`),
    headers: { authorization: `Basic ${btoa(`api:${provider.apiKey}`)}` },
    body: new URLSearchParams({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html }),
  }),
};

/** Makes a Mailgun email provider (id `mailgun` unless set). */
export default function Mailgun(options: MailgunOptions): MailgunConfig {
  if (!options?.domain) throw new AuthError("The Mailgun provider needs the sending `domain`.");
  const { region, baseUrl, ...rest } = options;
  return mailServiceProvider(mailgun, { ...rest, baseUrl: baseUrl ?? MAILGUN_BASE_URLS[region ?? "us"] });
}
