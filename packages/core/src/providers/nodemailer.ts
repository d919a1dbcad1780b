/**
 * Email (magic link) sign-in over SMTP with `nodemailer` (an optional peer dependency: install it).
 *
 * ```ts
 * Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.test>" })
 * ```
 */

import { AuthlibMailError } from "../email/mail-failure.js";
import { checkEmailSettings } from "../email/settings.js";
import { verificationMail } from "../email/template.js";
import { AuthError } from "../errors.js";
import type { EmailConfig, MailMessage, SendVerificationRequestParams } from "../types/providers.js";

/** Options of {@link Nodemailer}: `server` (a URL like `smtp://user:pass@host:587`, or transport options) is required. */
export type NodemailerOptions = Partial<Omit<EmailConfig, "type">> & { server: unknown };

/**
 * How long a sign-in request may wait on the SMTP server, in milliseconds. Nodemailer's own defaults (2
 * minutes to connect, 10 minutes of socket inactivity) would let a stalled mail server hold requests, and
 * their connections, for minutes. A `server` that sets any of these keeps its value.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** The provider's `server` with {@link SMTP_TIMEOUTS} filled in where it sets none. */
export function withSmtpTimeouts(server: unknown): unknown {
  if (typeof server === "string" && /^smtps?:/i.test(server)) {
    // A connection URL carries options in its query (nodemailer reads them there).
    const url = new URL(server);
    for (const [name, value] of Object.entries(SMTP_TIMEOUTS)) if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
    return url.href;
  }
  if (server && typeof server === "object" && !("url" in server)) return { ...SMTP_TIMEOUTS, ...server };
  return server;
}

/** Sends `mail` through the provider's SMTP server, from its `from` address. */
async function sendMailWithNodemailer(mail: MailMessage, provider: EmailConfig): Promise<void> {
  const { createTransport } = await import("nodemailer");
  const transport = createTransport(withSmtpTimeouts(provider.server) as Parameters<typeof createTransport>[0]);
  const result = await transport.sendMail({ from: provider.from, ...mail });
  const refused = [...(result.rejected ?? []), ...((result as { pending?: unknown[] }).pending ?? [])];
  if (refused.length > 0) throw new AuthlibMailError(`The SMTP server refused the recipient (${refused.length} address).`);
}

/** Sends the default sign-in mail through the provider's SMTP server. */
function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, code, provider, theme, text } = params;
  return sendMailWithNodemailer({ to: identifier, ...verificationMail({ url, code, host: new URL(url).host, theme, text }) }, provider);
}

/** Makes an SMTP email provider (id `nodemailer` unless set). */
export default function Nodemailer(options: NodemailerOptions): EmailConfig {
  if (!options?.server) throw new AuthError("The Nodemailer provider needs a `server` (an SMTP URL or nodemailer transport options).");
  return {
    id: "nodemailer",
    name: "Email",
    maxAge: 24 * 60 * 60,
    from: "authlib <no-reply@localhost>",
    sendVerificationRequest: sendWithNodemailer,
    sendMail: sendMailWithNodemailer,
    checkConfig: checkEmailSettings,
    ...options,
    type: "email",
  };
}
