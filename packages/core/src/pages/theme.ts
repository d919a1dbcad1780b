/**
 * Validation of the theme values that end up in the pages. Colours go into a `<style>` block, where
 * HTML escaping does not protect, so they must match a strict grammar; URLs go into `src`/`href`/`action`
 * attributes, where escaping stops attribute break-out but not a `javascript:` URL. Anything that does
 * not pass is dropped and the default is used.
 *
 * @module pages/theme
 */
import type { Theme } from "../types/config.js";

declare const safeColor: unique symbol;
declare const safeUrl: unique symbol;

/** A CSS colour that passed {@link toSafeCssColor}: safe to place in a `<style>` block. */
export type SafeCssColor = string & { readonly [safeColor]: true };

/** A URL that passed {@link toSafeImageUrl} or {@link toSafeNavigationUrl}. */
export type SafeUrl = string & { readonly [safeUrl]: true };

/** How the pages choose between light and dark. */
export type ColorScheme = "auto" | "light" | "dark";

/** Brand colour when the theme sets none (or an invalid one); white text on it has a 5.2:1 contrast. */
export const DEFAULT_BRAND_COLOR = "#2563eb" as SafeCssColor;

/** Text colour on the brand colour when the theme sets none (or an invalid one). */
export const DEFAULT_BUTTON_TEXT = "#ffffff" as SafeCssColor;

/** A theme after validation: every value is safe to render. */
export interface ResolvedTheme {
  colorScheme: ColorScheme;
  brandColor: SafeCssColor;
  buttonText: SafeCssColor;
  logo?: SafeUrl;
}

// The CSS named colours (CSS Color 4) plus the two colour keywords. A closed list rather than "any word"
// so that a typo falls back to the default instead of producing an invalid (transparent) button.
const NAMED_COLORS: ReadonlySet<string> = new Set(
  (
    "aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood " +
    "cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray " +
    "darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen " +
    "darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue " +
    "firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew " +
    "hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan " +
    "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray " +
    "lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue " +
    "mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred " +
    "midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid " +
    "palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple " +
    "rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue " +
    "slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white " +
    "whitesmoke yellow yellowgreen transparent currentcolor"
  ).split(" "),
);

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// Colour functions with numeric arguments only: digits, signs, dots, percent, commas, slashes, spaces and
// angle units. No parentheses, quotes, semicolons, braces or `<` can get through, so nothing can end the
// declaration, the rule or the <style> element.
const FUNCTIONAL_COLOR = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\((?:[-+0-9.%,/ ]|deg|g?rad|turn|none){1,80}\)$/i;

/** Returns the value when it is a plain CSS colour (hex, a colour function with numbers, or a named colour). */
export function toSafeCssColor(value: unknown): SafeCssColor | undefined {
  if (typeof value !== "string" || value.length > 100) return undefined;
  const color = value.trim();
  if (HEX_COLOR.test(color) || FUNCTIONAL_COLOR.test(color) || NAMED_COLORS.has(color.toLowerCase())) {
    return color as SafeCssColor;
  }
  return undefined;
}

// C0 controls and DEL: browsers strip or ignore some of them inside URLs (`java\tscript:`), so a URL that
// contains one is not what it looks like.
function hasControlCharacter(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

// Spaces are not valid in these URLs either, and browsers read `/\host` as `//host`.
function hasUnsafeCharacter(url: string): boolean {
  return hasControlCharacter(url) || url.includes(" ") || url.includes("\\");
}

const DATA_IMAGE_URL = /^data:image\/[a-z0-9.+-]+[;,]/i;
const MAX_IMAGE_URL_LENGTH = 512 * 1024;

function isSameOriginPath(url: string): boolean {
  return url.startsWith("/") && !url.startsWith("//") && !hasUnsafeCharacter(url);
}

function hasProtocol(url: string, protocols: readonly string[]): boolean {
  if (hasUnsafeCharacter(url)) return false;
  try {
    return protocols.includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Returns the value when it is a safe image source: a same-origin path (`/logo.svg`, not `//host/x`), a
 * `data:image/…` URL, or an `https:` URL. Everything else (`javascript:`, `http:`, protocol-relative,
 * relative paths) is rejected.
 */
export function toSafeImageUrl(value: unknown): SafeUrl | undefined {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_IMAGE_URL_LENGTH) return undefined;
  if (DATA_IMAGE_URL.test(value)) return hasControlCharacter(value) ? undefined : (value as SafeUrl);
  if (isSameOriginPath(value)) return value as SafeUrl;
  if (/^https:\/\//i.test(value) && hasProtocol(value, ["https:"])) return value as SafeUrl;
  return undefined;
}

/**
 * Returns the value when it may be a link target or a form action: a same-origin path or an absolute
 * `http:`/`https:` URL. The callers pass URLs the server built, so this is defence in depth against a
 * `javascript:` URL reaching an `href`.
 */
export function toSafeNavigationUrl(value: unknown): SafeUrl | undefined {
  if (typeof value !== "string" || value.length === 0) return undefined;
  if (isSameOriginPath(value)) return value as SafeUrl;
  if (/^https?:\/\//i.test(value) && hasProtocol(value, ["http:", "https:"])) return value as SafeUrl;
  return undefined;
}

/** Validates a {@link Theme}; invalid or missing values become the defaults (an invalid logo is left out). */
export function resolveTheme(theme: Theme | undefined): ResolvedTheme {
  const scheme = theme?.colorScheme;
  const resolved: ResolvedTheme = {
    colorScheme: scheme === "light" || scheme === "dark" ? scheme : "auto",
    brandColor: toSafeCssColor(theme?.brandColor) ?? DEFAULT_BRAND_COLOR,
    buttonText: toSafeCssColor(theme?.buttonText) ?? DEFAULT_BUTTON_TEXT,
  };
  const logo = toSafeImageUrl(theme?.logo);
  if (logo) resolved.logo = logo;
  return resolved;
}
