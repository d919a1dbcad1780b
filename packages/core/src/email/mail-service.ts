/**
 * Email (magic link) providers that send through a mail service's HTTP API with `fetch` (Resend,
 * SendGrid, Postmark, Mailgun): no SDK, so they run on every runtime. Each service describes only how
 * its API wants one message; the message itself is the same escaped template Nodemailer sends
 * (`email/template.tsx`), and a failed send throws, which the email sign-in turns into
 * `EmailSignInError` exactly like an SMTP failure.
 *
 * @module email/mail-service
 */
import type { EmailConfig, MailMessage, SendVerificationRequestParams } from "../types/providers.js";
import { AuthlibMailError } from "./mail-failure.js";
import { checkEmailSettings } from "./settings.js";
import { verificationMail } from "./template.js";

/** How long one call to a mail service may take before it is aborted. */
export const MAIL_SERVICE_TIMEOUT_MS = 10_000;

/** An email provider that sends through a mail service's HTTP API. */
export interface MailServiceConfig extends EmailConfig {
  /** The service's API origin (and path prefix, if any); tests and proxies point it elsewhere. */
  baseUrl: string;
}

/** The message to send: recipient, sender and the rendered sign-in mail. */
export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** One HTTP request to a mail service's send endpoint. */
export interface MailServiceRequest {
  url: string;
  headers: Record<string, string>;
  body: string | URLSearchParams;
}

/** What distinguishes one mail service: its name (for errors), its default API base URL and its request shape. */
export interface MailService<C extends MailServiceConfig> {
  id: string;
  name: string;
  baseUrl: string;
  /** The request that sends `mail` with the provider's `apiKey` (checked to be set). */
  request: (mail: OutgoingMail, provider: C & { apiKey: string }) => MailServiceRequest;
}

/** Thrown when a mail service cannot be reached or refuses the message; the sign-in reports `EmailSignInError`. */
export class MailServiceError extends AuthlibMailError {
  override name = "MailServiceError";
}

function envKeyName(id: string): string {
  return `AUTH_${id.toUpperCase().replace(/-/g, "_")}_KEY`;
}

/** `"Acme <no-reply@acme.test>"` as its parts; a bare address has no name. */
export function parseAddress(address: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(address);
  if (!match) return { email: address.trim() };
  const name = match[1]?.replace(/^"(.*)"$/, "$1");
  return name ? { email: (match[2] as string).trim(), name } : { email: (match[2] as string).trim() };
}

/**
 * Sends `message` through `service`, from the provider's `from` address. Throws {@link MailServiceError}
 * when the provider has no API key, the service cannot be reached in time, or answers anything but 2xx.
 * The error names the HTTP status only: neither the key nor a link reaches a log.
 */
export async function sendMailThroughService<C extends MailServiceConfig>(
  service: MailService<C>,
  message: MailMessage,
  provider: C,
): Promise<void> {
  if (!provider.apiKey) {
    throw new MailServiceError(`The ${service.name} provider has no API key: set ${envKeyName(provider.id)} or \`apiKey\`.`);
  }
  const mail: OutgoingMail = { from: provider.from ?? "authlib <no-reply@localhost>", ...message };
  const request = service.request(mail, provider as C & { apiKey: string });
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: "POST",
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(MAIL_SERVICE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new MailServiceError(`${service.name} could not be reached.`, { cause: error });
  }
  await response.body?.cancel().catch(() => {});
  if (!response.ok) throw new MailServiceError(`${service.name} refused the message (HTTP ${response.status}).`);
}

/** Sends the sign-in mail of `params` through `service` (see {@link sendMailThroughService}). */
export function sendThroughService<C extends MailServiceConfig>(
  service: MailService<C>,
  params: SendVerificationRequestParams,
): Promise<void> {
  const rendered = verificationMail({
    url: params.url,
    code: params.code,
    host: new URL(params.url).host,
    theme: params.theme,
    text: params.text,
  });
  return sendMailThroughService(service, { to: params.identifier, ...rendered }, params.provider as C);
}

/**
 * An email provider sending through `service`, with `options` over the defaults (id and name of the
 * service, links valid 24 hours, the service's base URL).
 */
export function mailServiceProvider<C extends MailServiceConfig>(service: MailService<C>, options: Partial<Omit<C, "type">>): C {
  // An option set to `undefined` (an unset env variable passed through) keeps the default.
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const provider: MailServiceConfig = {
    id: service.id,
    name: service.name,
    maxAge: 24 * 60 * 60,
    baseUrl: service.baseUrl,
    sendVerificationRequest: (params: SendVerificationRequestParams) => sendThroughService(service, params),
    sendMail: (message: MailMessage, provider: EmailConfig) => sendMailThroughService(service, message, provider as C),
    checkConfig: checkEmailSettings,
    ...defined,
    type: "email",
  };
  // The service-specific fields (`domain`, `messageStream`) come from `options`, typed by C.
  return provider as C;
}

/** The base URL without trailing slashes, so paths can be appended. */
export function apiUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
