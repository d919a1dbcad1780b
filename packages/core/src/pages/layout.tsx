/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The pragmas keep these files on the Preact runtime under any transpiler, e.g. Qwik's Vite config.
/**
 * The document shell every page shares: doctype, head, one inline stylesheet, a centered card.
 *
 * No inline scripts, no event-handler attributes and no external resources, so the pages work offline and
 * under a strict Content-Security-Policy (`default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:
 * https:; form-action 'self'`, or a hash of the `<style>` text instead of `'unsafe-inline'`). The one script a
 * page may load is the library's own passkey script (sign-in page with a WebAuthn provider), from the app's
 * origin: add `script-src 'self'; connect-src 'self'` then.
 *
 * @module pages/layout
 */
import { type ComponentChildren, Fragment } from "preact";
import { renderToString } from "preact-render-to-string";
import type { MessageKey, Translator } from "../types/i18n.js";
import { MAX_DISPLAY_NAME_LENGTH } from "../webauthn/display-name.js";
import { PAGE_CSS, type ProviderButtonColors, themeCss } from "./styles.js";
import type { ResolvedTheme } from "./theme.js";

/** What {@link renderDocument} needs. */
export interface DocumentProps {
  /** Text of `<title>`. */
  title: string;
  theme: ResolvedTheme;
  /** Colours of provider buttons (sign-in page only). */
  providerColors?: readonly ProviderButtonColors[];
  /** URLs of scripts served by the library itself (loaded with `defer`). */
  scripts?: readonly string[];
  children: ComponentChildren;
  /** The request's language: `<html lang dir>`. */
  text: Translator;
}

function Document({ title, theme, providerColors, scripts, children, text }: DocumentProps) {
  // The stylesheet is a text child, not raw HTML: even a value that slipped past validation would be
  // escaped and could not close the <style> element.
  const css = `${PAGE_CSS}\n${themeCss(theme, providerColors)}`;
  return (
    <html lang={text.locale} dir={text.dir} class={`theme-${theme.colorScheme}`}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme.colorScheme === "auto" ? "light dark" : theme.colorScheme} />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <style>{css}</style>
        {scripts?.map((src) => (
          <script key={src} src={src} defer />
        ))}
      </head>
      <body>
        <main>
          <div class="card">
            {/* Decorative (empty alt): the heading says what the page is, and the app's name is not known here. */}
            {theme.logo ? <img class="logo" src={theme.logo} alt="" /> : null}
            {children}
          </div>
        </main>
      </body>
    </html>
  );
}

/** Renders a complete HTML document. Every string in `props` is escaped by the renderer. */
export function renderDocument(props: DocumentProps): string {
  return `<!DOCTYPE html>${renderToString(<Document {...props} />)}`;
}

/** The hidden fields every POST form of the pages carries. */
export function HiddenFields({ csrfToken, callbackUrl }: { csrfToken: string; callbackUrl?: string }) {
  return (
    <>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
    </>
  );
}

/**
 * A translated text whose `{placeholders}` are elements (a `<code>`, the host in a `<span>`): the text is
 * split around them, so each language places them where its grammar wants. Every part stays escaped text.
 */
export function Filled({ text, values }: { text: string; values: Readonly<Record<string, ComponentChildren>> }) {
  const parts = text.split(/\{([A-Za-z][A-Za-z0-9]*)\}/);
  return (
    <>
      {parts.map((part, index) =>
        // Odd indexes are the names between braces.
        index % 2 === 1 && Object.hasOwn(values, part) ? (
          <Fragment key={index}>{values[part]}</Fragment>
        ) : index % 2 === 1 ? (
          `{${part}}`
        ) : (
          part
        ),
      )}
    </>
  );
}

const PASSKEY_MESSAGES = ["cancelled", "registered", "unsupported", "failed", "name", "long", "line", "address"] as const;

/**
 * The passkey script's messages in the page's language, as `data-msg-<key>` attributes of its section: the
 * script is one cached file for every language and falls back to English.
 */
export function passkeyMessages(text: Translator): Record<string, string> {
  return Object.fromEntries(
    PASSKEY_MESSAGES.map((key) => [`data-msg-${key}`, text.t(`passkey.${key}` as MessageKey, { max: MAX_DISPLAY_NAME_LENGTH })]),
  );
}

/**
 * Where the passkey script says what happened (`data-webauthn-status`), and what a browser without
 * JavaScript sees instead of the button: shared by every page with a passkey button.
 */
export function PasskeyStatus({ text }: { text: Translator }) {
  return (
    <>
      <p class="muted center" role="status" aria-live="polite" data-webauthn-status="" />
      <noscript>
        <p class="muted center">{text.t("signin.passkeysNeedScript")}</p>
      </noscript>
    </>
  );
}
