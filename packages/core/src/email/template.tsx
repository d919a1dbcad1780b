/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The default sign-in mail: subject, HTML and text. The HTML is rendered by preact (escaping every value);
 * the host is shown so the user can tell a real mail from a phishing one.
 */
import { renderToString } from "preact-render-to-string";
import type { Theme } from "../types.js";

const safeColour = /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i;

/** The mail to send for a sign-in link. */
export function verificationMail(params: { url: string; host: string; theme: Theme }): { subject: string; text: string; html: string } {
  const { url, host, theme } = params;
  const brand = theme.brandColor && safeColour.test(theme.brandColor) ? theme.brandColor : "#346df1";
  const buttonText = theme.buttonText && safeColour.test(theme.buttonText) ? theme.buttonText : "#ffffff";
  const html = renderToString(
    <body style="background:#f9f9f9;margin:0;padding:24px;font-family:Helvetica,Arial,sans-serif">
      <table
        width="100%"
        cellPadding="0"
        cellSpacing="0"
        role="presentation"
        style="max-width:600px;margin:auto;background:#fff;border-radius:10px"
      >
        <tr>
          <td align="center" style="padding:24px 16px 8px;font-size:22px;color:#444">
            Sign in to <strong>{host}</strong>
          </td>
        </tr>
        <tr>
          <td align="center" style="padding:16px">
            <a
              href={url}
              target="_blank"
              rel="noreferrer"
              style={`background:${brand};color:${buttonText};text-decoration:none;border-radius:5px;padding:10px 20px;display:inline-block;font-weight:bold;font-size:18px`}
            >
              Sign in
            </a>
          </td>
        </tr>
        <tr>
          <td align="center" style="padding:0 16px 24px;font-size:15px;color:#444">
            If you did not request this email you can safely ignore it. The link works once.
          </td>
        </tr>
      </table>
    </body>,
  );
  return {
    subject: `Sign in to ${host}`,
    text: `Sign in to ${host}\n${url}\n\nIf you did not request this email you can safely ignore it. The link works once.\n`,
    html: `<!doctype html><html lang="en">${html}</html>`,
  };
}
