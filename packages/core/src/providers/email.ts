/**
 * A generic email (magic link) provider: you bring `sendVerificationRequest`. For SMTP, use
 * `@authlib/core/providers/nodemailer`. Email sign-in needs an adapter (verification tokens are stored).
 */
import { checkEmailSettings } from "../email/settings.js";
import type { EmailConfig } from "../types/providers.js";

/** Options of {@link Email}: `sendVerificationRequest` is required. */
export type EmailOptions = Partial<Omit<EmailConfig, "type">> & Pick<EmailConfig, "sendVerificationRequest">;

/** Makes an email provider (id `email` unless set; links valid 24 hours unless `maxAge` is set). */
export default function Email(options: EmailOptions): EmailConfig {
  return { id: "email", name: "Email", maxAge: 24 * 60 * 60, checkConfig: checkEmailSettings, ...options, type: "email" };
}
