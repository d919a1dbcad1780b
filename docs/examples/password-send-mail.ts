/**
 * docs/password.md, "Sending the mails yourself": `Password({ sendMail })` with no email provider; the
 * function sends authlib's mail through any transport and throws when it was not sent.
 */
import { createAuth } from "@authlib/core";
import type { MailMessage } from "@authlib/core/providers";
import Password from "@authlib/core/providers/password";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";

async function sendWithMyService(mail: MailMessage): Promise<void> {
  const response = await fetch("https://mail.example.com/send", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${process.env.MAIL_API_KEY}` },
    body: JSON.stringify({ from: "Acme <no-reply@acme.test>", ...mail }),
  });
  if (!response.ok) throw new Error(`The mail service answered ${response.status}.`);
}

export const auth = createAuth({
  adapter: HostedDbAdapter(new HostedDbClient()),
  providers: [Password({ sendMail: sendWithMyService })],
});
