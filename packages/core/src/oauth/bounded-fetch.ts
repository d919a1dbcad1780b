/**
 * Every response authlib reads from a provider goes through {@link boundedFetch}: the body is read at
 * most up to a byte limit while it streams (a provider, or whoever answers in its place, cannot make
 * authlib buffer 400 MB), and a JSON body is parsed exactly once. The result is a {@link ReadResponse}
 * whose `json()` hands out that one parsed value, so oauth4webapi, `oauth/conform.ts` and
 * `oauth/tenant.ts` share it instead of each cloning and parsing the body again.
 *
 * @module oauth/bounded-fetch
 */
import { InvalidProvider, ProviderResponseTooLarge } from "../errors.js";
import { readAtMost } from "../http/read-stream.js";

/** The default of a provider's `maxResponseBytes`: 1 MiB, far above any real discovery, token or userinfo body. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** Statuses whose responses cannot carry a body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

const NOT_PARSED: unique symbol = Symbol("not parsed");

/**
 * A response whose body has been read completely (within the limit). When its content type is JSON and
 * the body parsed, `json()` returns that parsed value every time (the same object: in-place changes are
 * seen by the next reader) and `clone()` shares it; otherwise `json()` parses as usual (and fails as usual).
 */
export class ReadResponse extends Response {
  readonly #bytes: Uint8Array | null;
  readonly #parsed: unknown;

  constructor(bytes: Uint8Array | null, init: ResponseInit, parsed: unknown = NOT_PARSED) {
    super(bytes as BodyInit | null, init);
    this.#bytes = bytes;
    this.#parsed = parsed;
  }

  /** True when the body was JSON and parsed: {@link ReadResponse.json} does not parse again. */
  get parsed(): boolean {
    return this.#parsed !== NOT_PARSED;
  }

  override json(): Promise<unknown> {
    return this.#parsed === NOT_PARSED ? super.json() : Promise.resolve(this.#parsed);
  }

  override clone(): ReadResponse {
    return new ReadResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers }, this.#parsed);
  }

  /** The same status and headers with `value` as the parsed body (bytes kept; `json()` is authoritative). */
  withJson(value: unknown): ReadResponse {
    return new ReadResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers }, value);
  }
}

/** The parsed JSON body of `response` without parsing it again when it is a {@link ReadResponse}. */
export async function parsedJson(response: Response): Promise<unknown> {
  return response instanceof ReadResponse ? response.json() : response.clone().json();
}

/** `url` without query and fragment, for error causes (a query may carry a token). */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}

function tooLarge(url: string, limit: number, bytesRead: number, declared?: number): ProviderResponseTooLarge {
  return new ProviderResponseTooLarge(
    `The provider's response from ${describeUrl(url)} is larger than ${limit} bytes (the provider's maxResponseBytes).`,
    { cause: { url: describeUrl(url), limit, bytesRead, ...(declared === undefined ? {} : { declared }) } },
  );
}

/** `RequestInit` as oauth4webapi passes it (its bodies include a `Uint8Array`, which `fetch` accepts). */
export type ProviderFetchInit = Omit<RequestInit, "body"> & { body?: BodyInit | Uint8Array | null };

function isJsonType(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type.endsWith("+json");
}

/** The byte limit of a provider: its `maxResponseBytes`, or 1 MiB. Throws `InvalidProvider` for a bad value. */
export function responseLimitOf(provider: { id: string; maxResponseBytes?: number }): number {
  const limit = provider.maxResponseBytes;
  if (limit === undefined) return DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new InvalidProvider(`Provider "${provider.id}" has an invalid maxResponseBytes: use a positive whole number of bytes.`);
  }
  return limit;
}

/**
 * A `fetch` for provider requests (oauth4webapi's `customFetch`, and the presets' own API calls): the
 * global `fetch`, then the body read through a byte counter. A `Content-Length` above `limit` is refused
 * before reading; a body without one, or lying about it, is cut off at `limit` + one chunk. Throws
 * `ProviderResponseTooLarge` (`cause.bytesRead` says how much was read) when the body is too large.
 */
export function boundedFetch(limit: number): (url: string, init?: ProviderFetchInit) => Promise<ReadResponse> {
  return async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    const init2: ResponseInit = { status: response.status, statusText: response.statusText, headers: response.headers };
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) {
      void response.body?.cancel().catch(() => {});
      throw tooLarge(url, limit, 0, declared);
    }
    if (!response.body || NULL_BODY_STATUSES.has(response.status)) {
      await response.body?.cancel().catch(() => {});
      return new ReadResponse(null, init2);
    }
    const read = await readAtMost(response.body, limit);
    if (!("bytes" in read)) throw tooLarge(url, limit, read.read);
    const { bytes } = read;
    if (!isJsonType(response.headers.get("content-type"))) return new ReadResponse(bytes, init2);
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      // Not JSON after all: json() then fails the way oauth4webapi reports.
      return new ReadResponse(bytes, init2);
    }
    return new ReadResponse(bytes, init2, parsed);
  };
}
