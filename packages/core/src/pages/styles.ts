/**
 * The one stylesheet of the built-in pages, inlined so that the pages need nothing from the network.
 *
 * The CSS is rendered as the text of a `<style>` element, which the renderer escapes like any text. So it
 * must not contain quotes, `&` or `<`: font names are unquoted identifiers and no rule needs `content`.
 *
 * Colour contrast (WCAG AA, 4.5:1 for text): light text #1f2328 on #ffffff 15.8, muted #59636e 6.1, input
 * border #6e7781 4.6, default brand #2563eb with white 5.2; dark text #e6edf3 on #161b22 14.6, muted
 * #9198a1 5.9, input border #6e7681 on #0d1117 4.1 (3:1 needed), links (brand mixed with white) 7.4.
 *
 * @module pages/styles
 */
import type { SafeCssColor } from "./theme.js";

const LIGHT = [
  "--page-bg:#f3f4f6",
  "--card-bg:#ffffff",
  "--text:#1f2328",
  "--muted:#59636e",
  "--border:#d8dee4",
  "--input-bg:#ffffff",
  "--input-border:#6e7781",
  "--neutral-bg:#f6f8fa",
  "--neutral-hover:#eaeef2",
  "--danger-bg:#fdecea",
  "--danger-border:#f1aea7",
  "--danger-text:#8a1c12",
  "--focus:#0b57d0",
  "--link:var(--brand)",
  "--shadow:0 1px 3px rgba(31,35,40,.08),0 8px 24px rgba(31,35,40,.06)",
].join(";");

const DARK = [
  "--page-bg:#0d1117",
  "--card-bg:#161b22",
  "--text:#e6edf3",
  "--muted:#9198a1",
  "--border:#30363d",
  "--input-bg:#0d1117",
  "--input-border:#6e7681",
  "--neutral-bg:#21262d",
  "--neutral-hover:#30363d",
  "--danger-bg:#3b1418",
  "--danger-border:#8e3a3a",
  "--danger-text:#ffb4ab",
  "--focus:#79c0ff",
  // A brand colour chosen for light backgrounds is usually too dark for text on the dark card.
  "--link:color-mix(in srgb,var(--brand) 55%,#ffffff)",
  "--shadow:none",
].join(";");

const FONT_STACK = "system-ui,-apple-system,Segoe UI,Roboto,Helvetica Neue,Arial,Noto Sans,Liberation Sans,sans-serif";

/** The static stylesheet shared by every page. The theme's colours come from {@link themeCss}. */
export const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light dark;-webkit-text-size-adjust:100%;text-size-adjust:100%}
html.theme-light{color-scheme:light}
html.theme-dark{color-scheme:dark}
:root{${LIGHT}}
@media (prefers-color-scheme:dark){html.theme-auto{${DARK}}}
html.theme-dark{${DARK}}
body{margin:0;min-height:100vh;min-height:100dvh;display:flex;align-items:center;justify-content:center;padding:24px 16px;background:var(--page-bg);color:var(--text);font-family:${FONT_STACK};font-size:16px;line-height:1.5}
main{width:100%;max-width:400px}
.card{background:var(--card-bg);border:1px solid var(--border);border-radius:12px;padding:32px 24px;box-shadow:var(--shadow)}
@media (max-width:400px){body{padding:16px 12px}.card{padding:24px 16px}}
.logo{display:block;max-width:160px;max-height:64px;width:auto;height:auto;margin:0 auto 24px}
h1{margin:0 0 24px;font-size:1.5rem;line-height:1.25;font-weight:600;text-align:center}
p{margin:0 0 16px}
.center{text-align:center}
.impersonation{position:fixed;top:0;inset-inline:0;z-index:1;display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:8px 16px;padding:8px 16px;background:var(--danger-bg);color:var(--danger-text);border-bottom:1px solid var(--danger-border)}
.impersonation p{margin:0}
.impersonation form{flex-direction:row}
.impersonation .button{width:auto;min-height:36px;padding:6px 14px}
body.impersonated{padding-top:112px}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.muted{color:var(--muted);font-size:.9375rem}
.host{font-weight:600;overflow-wrap:anywhere}
a{color:var(--link);text-decoration:underline;text-underline-offset:2px}
a:hover{text-decoration-thickness:2px}
form{display:flex;flex-direction:column;gap:12px;margin:0}
.stack{display:flex;flex-direction:column;gap:12px}
.field{display:flex;flex-direction:column;gap:6px}
label{font-size:.9375rem;font-weight:500}
input{width:100%;min-height:44px;margin:0;padding:10px 12px;border:1px solid var(--input-border);border-radius:8px;background:var(--input-bg);color:var(--text);font:inherit}
input::placeholder{color:var(--muted);opacity:1}
.button{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;min-height:44px;margin:0;padding:10px 16px;border:1px solid transparent;border-radius:8px;background:var(--brand);color:var(--brand-text);font:inherit;font-weight:600;line-height:1.25;text-align:center;text-decoration:none;cursor:pointer;overflow-wrap:anywhere}
.button:hover{filter:brightness(1.1);text-decoration:none}
.button:active{filter:brightness(.95)}
.button-neutral{background:var(--neutral-bg);color:var(--text);border-color:var(--input-border)}
.button-neutral:hover{background:var(--neutral-hover);filter:none}
.button-danger{background:var(--danger-bg);color:var(--danger-text);border-color:var(--danger-border)}
.button-danger:hover{filter:brightness(.97)}
.qr{display:block;margin:0 auto;border-radius:8px;background:#fff}
.codes{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:4px 12px;margin:8px 0 0;padding:0;list-style:none}
.field-error{margin:4px 0 0;color:var(--danger-text);font-size:.875rem}
.button-provider{background:var(--provider-bg);color:var(--provider-text);border-color:var(--input-border)}
.provider-logo{flex:none;width:20px;height:20px;object-fit:contain}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
input:focus-visible{border-color:var(--focus)}
.divider{display:flex;align-items:center;margin:24px 0;background:linear-gradient(var(--border),var(--border)) center/100% 1px no-repeat;color:var(--muted);font-size:.875rem}
.divider span{margin:0 auto;padding:0 12px;background:var(--card-bg)}
.alert{margin:0 0 24px;padding:12px 16px;border:1px solid var(--danger-border);border-radius:8px;background:var(--danger-bg);color:var(--danger-text)}
.alert p{margin:0}
.alert p+p{margin-top:4px;font-size:.875rem}
.notice{margin:0 0 24px;padding:12px 16px;border:1px solid var(--border);border-radius:8px}
.notice p{margin:0}
h2{margin:24px 0 4px;font-size:1.125rem;font-weight:600}
.methods{list-style:none;margin:0;padding:0}
.methods li{display:flex;align-items:center;justify-content:space-between;gap:12px}
.actions{display:flex;flex-direction:column;gap:12px;margin-top:24px}
@media (forced-colors:active){.button{border-color:ButtonText}.alert{border-color:CanvasText}}
`.trim();

/** The colours of one provider's button on the sign-in page, keyed by the provider's position. */
export interface ProviderButtonColors {
  index: number;
  background: SafeCssColor;
  text: SafeCssColor;
}

/** The CSS class that carries the colours of the provider at `index`. */
export function providerClassName(index: number): string {
  return `provider-${index}`;
}

/**
 * The theme-dependent rules: the brand colours on `:root` and one rule per coloured provider button. Only
 * validated colours and integers go in, so the result cannot end the `<style>` element.
 */
export function themeCss(
  brand: { brandColor: SafeCssColor; buttonText: SafeCssColor },
  providers: readonly ProviderButtonColors[] = [],
): string {
  const rules = [`:root{--brand:${brand.brandColor};--brand-text:${brand.buttonText}}`];
  for (const provider of providers) {
    if (!Number.isInteger(provider.index)) continue;
    rules.push(`.${providerClassName(provider.index)}{--provider-bg:${provider.background};--provider-text:${provider.text}}`);
  }
  return rules.join("\n");
}
