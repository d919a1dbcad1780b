/**
 * A tiny browser stand-in for driving `Auth()` in tests: a cookie jar that honours Set-Cookie (including
 * deletions), and helpers for GET/POST with the jar's cookies.
 */
import { Auth } from "../../src/kernel/auth.js";
import type { AuthConfig } from "../../src/types/config.js";

export interface StoredCookie {
  name: string;
  value: string;
  attributes: Record<string, unknown>;
}

/** Parses one Set-Cookie header value into name, decoded value and lower-cased attributes. */
export function parseSetCookie(header: string): StoredCookie {
  const [pair = "", ...parts] = header.split(";");
  const index = pair.indexOf("=");
  const attributes: Record<string, unknown> = {};
  for (const part of parts) {
    const [key = "", ...rest] = part.trim().split("=");
    const value = rest.join("=");
    const k = key.toLowerCase();
    if (k === "max-age") attributes.maxAge = Number(value);
    else if (k === "expires") attributes.expires = new Date(value);
    else attributes[k] = value === "" ? true : value;
  }
  return { name: pair.slice(0, index).trim(), value: decodeURIComponent(pair.slice(index + 1).trim()), attributes };
}

export class CookieJar {
  readonly cookies = new Map<string, StoredCookie>();

  /** Applies every Set-Cookie header of a response. */
  apply(response: Response): StoredCookie[] {
    const applied: StoredCookie[] = [];
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      const { name, value, attributes } = cookie;
      applied.push(cookie);
      const expired = attributes.maxAge === 0 || (attributes.expires instanceof Date && attributes.expires.valueOf() < Date.now());
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, cookie);
    }
    return applied;
  }

  header(): string {
    return [...this.cookies.values()].map((c) => `${c.name}=${encodeURIComponent(c.value)}`).join("; ");
  }

  get(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }
}

/** Sends a request (in process through `Auth()`, or over HTTP) and answers with the response. */
type Transport = (request: Request, clientAddress: string | undefined) => Promise<Response>;

/**
 * A cookie-jar client over `transport`: what {@link authClient} and {@link httpClient} share. `defaults`
 * go with every request (a browser's user-agent), under the request's own headers.
 */
function clientOver(transport: Transport, origin: string, clientAddress?: string, defaults?: HeadersInit) {
  const jar = new CookieJar();
  async function send(path: string, init: RequestInit & { form?: Record<string, string>; json?: unknown; clientAddress?: string } = {}) {
    const headers = new Headers(defaults);
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
    if (jar.cookies.size > 0 && !headers.has("cookie")) headers.set("cookie", jar.header());
    let body = init.body;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const response = await transport(
      new Request(new URL(path, origin), {
        method: init.method ?? (body ? "POST" : "GET"),
        headers,
        body,
        duplex: "half",
        redirect: "manual",
      } as RequestInit),
      init.clientAddress ?? clientAddress,
    );
    const setCookies = jar.apply(response);
    return Object.assign(response, { setCookies });
  }
  async function csrf(): Promise<string> {
    const response = await send("/auth/csrf");
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }
  async function session() {
    const response = await send("/auth/session");
    return (await response.json()) as Record<string, any> | null;
  }
  /**
   * Opens an email sign-in link as a person would: the link, then, when it answers its confirmation page
   * (another browser than the one that asked), the page's button (a POST of the page's form).
   */
  async function openEmailLink(link: string) {
    const opened = await send(link);
    if (opened.status !== 200) return opened;
    const form = formOf(await opened.text());
    if (!form) throw new Error("the link answered a page without a form");
    return send(form.action, { form: form.fields });
  }
  return { jar, send, csrf, session, openEmailLink, origin };
}

const entities: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#39;": "'", "&#x27;": "'", "&lt;": "<", "&gt;": ">" };

/** Text of an HTML attribute value, its entities decoded. */
function attributeText(value: string): string {
  return value.replace(/&(amp|quot|#39|#x27|lt|gt);/g, (entity) => entities[entity] ?? entity);
}

/** The first POST form of a page: its action and its hidden fields. */
export function formOf(html: string): { action: string; fields: Record<string, string> } | undefined {
  const form = html.match(/<form action="([^"]*)" method="post">([\s\S]*?)<\/form>/);
  if (!form) return undefined;
  const fields: Record<string, string> = {};
  for (const input of (form[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[input[1] as string] = attributeText(input[2] as string);
  }
  return { action: attributeText(form[1] as string), fields };
}

/**
 * A client bound to one config and one cookie jar, on `origin`. `clientAddress` is the connection address
 * handed to `Auth()` (default: none); a request may give its own. `headers` go with every request.
 */
export function authClient(config: AuthConfig, origin = "http://localhost:3000", clientAddress?: string, headers?: HeadersInit) {
  return clientOver((request, address) => Auth(request, config, { clientAddress: address }), origin, clientAddress, headers);
}

/**
 * The same client over real HTTP: every request goes through `fetch` to the server at `origin` (e.g.
 * `startNodeServer` of `node-server.ts`); redirects are answered, not followed.
 */
export function httpClient(origin: string) {
  return clientOver((request) => fetch(request), origin);
}
