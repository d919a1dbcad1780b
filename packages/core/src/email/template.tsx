/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The mails authlib writes: the default sign-in mail, and the password provider's mails, all in one
 * layout (a heading, an optional button, a note). The HTML is rendered by preact (escaping every value);
 * the host is shown so the user can tell a real mail from a phishing one.
 */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { ENGLISH } from "../i18n/translator.js";
import type { Theme } from "../types/config.js";
import type { Translator } from "../types/i18n.js";

const safeColour = /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i;

/** A rendered mail. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What a mail says: its heading (rich in HTML, plain in text), an optional button, and its notes. */
export interface MailContent {
  subject: string;
  heading: { html: ComponentChildren; text: string };
  action?: { label: string; url: string };
  /** A one-time code, shown large under the button (the text version has it in its notes). */
  code?: string;
  notes: readonly string[];
  theme: Theme;
  /** The language of the request that caused the mail: `<html lang dir>` (default English). */
  text?: Translator;
}

/** Renders `content` as a mail (HTML and text). */
export function renderMail(content: MailContent): RenderedMail {
  const { heading, action, code, notes, theme } = content;
  const language = content.text ?? ENGLISH;
  const brand = theme.brandColor && safeColour.test(theme.brandColor) ? theme.brandColor : "#346df1";
  const buttonText = theme.buttonText && safeColour.test(theme.buttonText) ? theme.buttonText : "#ffffff";
  const html = renderToString(
    <body dir={language.dir} style="background:#f9f9f9;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif">
      <table
        width="100%"
        cellPadding="0"
        cellSpacing="0"
        role="presentation"
        style="max-width:600px;margin:auto;background:#fff;border-radius:10px"
      >
        <tr>
          <td align="center" style="padding:24px 16px 8px;font-size:22px;color:#444">
            {heading.html}
          </td>
        </tr>
        {action ? (
          <tr>
            <td align="center" style="padding:16px">
              <a
                href={action.url}
                target="_blank"
                rel="noreferrer"
                style={`background:${brand};color:${buttonText};text-decoration:none;border-radius:5px;padding:10px 20px;display:inline-block;font-weight:bold;font-size:18px`}
              >
                {action.label}
              </a>
            </td>
          </tr>
        ) : null}
        {code ? (
          <tr>
            <td align="center" style="padding:0 16px 16px;font-size:28px;letter-spacing:6px;font-family:monospace;color:#222">
              {code}
            </td>
          </tr>
        ) : null}
        {notes.map((note) => (
          <tr key={note}>
            <td align="center" style="padding:0 16px 24px;font-size:15px;color:#444">
              {note}
            </td>
          </tr>
        ))}
      </table>
    </body>,
  );
  const text = [heading.text, ...(action ? [action.url] : []), "", ...notes.flatMap((note) => [note, ""])].join("\n");
  return {
    subject: content.subject,
    text,
    html: `<!doctype html><html lang="${escapeAttribute(language.locale)}" dir="${language.dir}">${html}</html>`,
  };
}

/** The language of a mail to `site`: the request's, English when none is given. */
export function textOf(site: { text?: Translator }): Translator {
  return site.text ?? ENGLISH;
}

/** A heading that names the site: "<lead> <strong>host</strong>". */
export function hostHeading(lead: string, host: string): MailContent["heading"] {
  return {
    html: (
      <>
        {lead} <strong>{host}</strong>
      </>
    ),
    text: `${lead} ${host}`,
  };
}

/**
 * The mail to send for a sign-in link, and its one-time code when the provider sends one (the link and
 * the code are one credential: whichever is used first, the other stops working).
 */
export function verificationMail(params: { url: string; host: string; theme: Theme; code?: string; text?: Translator }): RenderedMail {
  const { url, host, theme, code } = params;
  const text = params.text ?? ENGLISH;
  const codeNotes = code ? [text.t("mail.signIn.codeNote", { code })] : [];
  return renderMail({
    subject: text.t("mail.signIn.subject", { host }),
    heading: hostHeading(text.t("mail.signIn.heading"), host),
    action: { label: text.t("mail.signIn.button"), url },
    code,
    notes: [...codeNotes, text.t(code ? "mail.signIn.ignoreLinkAndCode" : "mail.signIn.ignoreLink")],
    theme,
    text,
  });
}

// The locale is a catalog's tag (letters, digits, hyphens); escaped all the same, as it is written outside the renderer.
function escapeAttribute(value: string): string {
  return value.replace(/[^A-Za-z0-9-]/g, "");
}
