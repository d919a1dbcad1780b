/**
 * A rendered page as the answer of a route: the one place that puts a page and its headers together.
 *
 * @module pages/html
 */
import { pageHeaders } from "../http/security-headers.js";
import type { ResponseInternal } from "../types/internal.js";
import type { PageResult } from "./index.js";

/** A rendered page as a response: never framed, never cached (see `pages/security-headers`). */
export async function html(page: PageResult): Promise<ResponseInternal> {
  return { status: page.status, body: page.html, headers: await pageHeaders(page.html) };
}
