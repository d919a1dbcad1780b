/** Small HTTP helpers for the tests: a cookie jar, form posts, and reading values out of rendered pages. */

/** Cookies the way a browser keeps them: by name, the last Set-Cookie wins, `Max-Age=0` deletes. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Takes in every Set-Cookie of a response. */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (/;\s*Max-Age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The Cookie request header. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** Fetches without following redirects, sending and storing the jar's cookies. */
export async function request(url: string, init: RequestInit & { jar?: CookieJar } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.jar && init.jar.cookies.size > 0) headers.set("cookie", init.jar.header());
  const response = await fetch(url, { ...init, headers, redirect: "manual" });
  init.jar?.store(response);
  return response;
}

/** POSTs a urlencoded form the way a browser does from a page of `origin`. */
export function postForm(url: string, fields: Record<string, string>, jar?: CookieJar): Promise<Response> {
  const { origin } = new URL(url);
  return request(url, {
    method: "POST",
    jar,
    headers: { origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The `?qaction=…` of the `<form id="…">` that Qwik rendered for an action. */
export function actionId(html: string, formId: string): string {
  const form = html.match(new RegExp(`<form[^>]*id="${formId}"[^>]*>`))?.[0];
  const id = form?.match(/qaction=([\w-]+)/)?.[1];
  if (!id) throw new Error(`No action form #${formId} in the page.`);
  return id;
}

/** The JSON the page printed in `<pre id="…">`. */
export function printedJson(html: string, preId: string): unknown {
  const text = html.match(new RegExp(`<pre id="${preId}">([\\s\\S]*?)</pre>`))?.[1];
  if (text === undefined) throw new Error(`No <pre id="${preId}"> in the page.`);
  const decoded = text
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return JSON.parse(decoded);
}
