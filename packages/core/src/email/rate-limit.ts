/**
 * `EmailRateLimit`, where the main entry point re-exports it from: an email provider's own limit on sign-in
 * mails. Declared in `rate-limit-types.ts`; the mails are counted in `rate-limit/email.ts`.
 *
 * @module email/rate-limit
 */
export type { EmailRateLimit } from "../rate-limit-types.js";
