/**
 * Where the consumer app's sign-in mails arrive, one shape for the flows whatever carried them: the SMTP
 * server of services.ts (Nodemailer, on Node), or Resend's `POST /emails` answered in the test (an HTTP
 * mail API, on workerd, whose outbound requests to `api.resend.com` workerd.ts hands to it).
 */
import type { SmtpServer } from "./services.js";

/** One mail as the flows read it. */
export interface ReceivedMail {
  to: string;
  text: string;
}

/** The mails one email provider of the app sent. */
export interface Mailbox {
  /** The provider's id: its links go to `/auth/callback/<id>`. */
  readonly providerId: string;
  /** How many mails arrived so far. */
  count(): number;
  /** The first mail after the first `since` ones, waiting up to 5 s; throws when none came. */
  nextMail(since: number): Promise<ReceivedMail>;
}

/** The SMTP server's mails, for the guide's Nodemailer provider. */
export function smtpMailbox(smtp: SmtpServer): Mailbox {
  return {
    providerId: "nodemailer",
    count: () => smtp.mails.length,
    async nextMail(since) {
      const mail = await smtp.nextMail(since);
      const to = mail.to && !Array.isArray(mail.to) ? (mail.to.value[0]?.address ?? "") : "";
      return { to, text: String(mail.text) };
    },
  };
}

/** Resend's API as far as the Resend provider uses it: `POST /emails` with a Bearer key and a JSON mail. */
export interface ResendApi extends Mailbox {
  /** The origin the provider sends to. */
  readonly origin: string;
  /** The API key it accepts. */
  readonly apiKey: string;
  /** Answers one request to {@link origin} the way Resend would. */
  answer(request: Request): Promise<Response>;
}

/** A stand-in for Resend's API that keeps the mails; `apiKey` is the key the app must send. */
export function resendMailbox(apiKey: string): ResendApi {
  const mails: ReceivedMail[] = [];
  return {
    providerId: "resend",
    origin: "https://api.resend.com",
    apiKey,
    count: () => mails.length,
    async nextMail(since) {
      const deadline = Date.now() + 5000;
      while (mails.length <= since && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      const mail = mails[since];
      if (!mail) throw new Error("no mail arrived");
      return mail;
    },
    async answer(request) {
      if (request.method !== "POST" || new URL(request.url).pathname !== "/emails") return new Response("Not Found", { status: 404 });
      if (request.headers.get("authorization") !== `Bearer ${apiKey}`)
        return Response.json({ message: "API key is invalid" }, { status: 401 });
      const body = (await request.json()) as { to: string[]; text: string };
      mails.push({ to: body.to[0], text: body.text });
      return Response.json({ id: `mail-${mails.length}` });
    },
  };
}
