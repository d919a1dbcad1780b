/**
 * docs/password.md: email-and-password accounts kept by authlib, and an app's own sign-up and
 * change-password handlers on `auth.api` (typed errors instead of the built-in pages).
 */
import { createAuth } from "@authlib/core";
import { AuthError, InvalidPassword } from "@authlib/core/errors";
import Nodemailer from "@authlib/core/providers/nodemailer";
import Password from "@authlib/core/providers/password";
import { HostedDbAdapter, HostedDbClient } from "@authlib/hosted-db-adapter";

declare function audit(event: string, userId: string, detail: string): Promise<void>;

export const auth = createAuth({
  adapter: HostedDbAdapter(new HostedDbClient()),
  providers: [
    Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.test>" }),
    Password({ minLength: 10 }), // 10 to 128 characters; the mails go through Nodemailer
  ],
  events: {
    passwordChanged: ({ userId, reason }) => audit("passwordChanged", userId, reason),
    userDeleted: ({ user }) => audit("userDeleted", user.id ?? "", user.email ?? ""),
  },
});

/** Your own sign-up form's server code: the answer to show, never whether the address had an account. */
export async function signUp(request: Request, form: FormData): Promise<{ redirect: string } | { error: string }> {
  try {
    const { redirect } = await auth.api.signUp(request, {
      email: String(form.get("email")),
      password: String(form.get("password")),
      name: String(form.get("name") ?? ""),
      redirectTo: "/welcome",
    });
    return { redirect }; // the "check your email" page
  } catch (error) {
    if (error instanceof InvalidPassword) return { error: error.rule === "too-short" ? "Use at least 10 characters." : error.message };
    if (error instanceof AuthError) return { error: error.type }; // InvalidName, EmailSignInError, RateLimited, MissingCSRF
    throw error;
  }
}

/** A settings page: change the password; the answer's cookies renew this session (others have ended). */
export async function changePassword(request: Request, currentPassword: string, password: string) {
  const { cookies } = await auth.api.changePassword(request, { currentPassword, password });
  return cookies;
}
