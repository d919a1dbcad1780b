/**
 * Email sign-in through Mailgun's Messages API (`fetch`, no SDK). Set `AUTH_MAILGUN_KEY` (or `apiKey`)
 * and a `from` address on the sending domain; the domain is taken from `from` unless `domain` is set (as
 * Auth.js does). Domains in Mailgun's EU region need `region: "eu"` (or an explicit `baseUrl`). Needs an
 * adapter.
 *
 * ```ts
 * Mailgun({ from: "Acme <no-reply@mg.acme.test>", region: "eu" })
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

/**
 * Options of {@link Mailgun}: `domain` (default: the domain of `from`'s address); `region` picks the API
 * origin unless `baseUrl` is set.
 */
export type MailgunOptions = Partial<Omit<MailgunConfig, "type">> & { region?: "us" | "eu" };

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

/** The domain of the address in `from` (`"Acme <no-reply@mg.acme.test>"` → `mg.acme.test`), or `undefined`. */
function domainOf(from: string | undefined): string | undefined {
  const address = from?.match(/<([^<>]+)>\s*$/)?.[1] ?? from;
  const domain = address?.trim().split("@")[1];
  return domain && /^[A-Za-z0-9.-]+$/.test(domain) ? domain.toLowerCase() : undefined;
}

/** Makes a Mailgun email provider (id `mailgun` unless set). */
export default function Mailgun(options: MailgunOptions = {}): MailgunConfig {
  const domain = options.domain || domainOf(options.from);
  if (!domain) {
    throw new AuthError("The Mailgun provider needs the sending domain: set `from` to an address on it, or `domain`.");
  }
  const { region, baseUrl, ...rest } = options;
  return mailServiceProvider(mailgun, { ...rest, domain, baseUrl: baseUrl ?? MAILGUN_BASE_URLS[region ?? "us"] });
}
