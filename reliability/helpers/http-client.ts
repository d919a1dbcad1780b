/**
 * A browser stand-in over real HTTP: one cookie jar per user (the jar of the core tests' `authClient`),
 * requests through a shared keep-alive `node:http` agent, each with a hard client-side deadline so a
 * server that hangs shows up as a `timedOut` answer instead of a stuck test. Redirects are not followed:
 * the tests look at where they point.
 */
import { Agent, request as httpRequest } from "node:http";
import { CookieJar } from "../../packages/core/test/helpers/auth-client.js";

/** One answer, or the reason there was none. */
export interface HttpAnswer {
  method: string;
  path: string;
  /** 0 when there was no answer (`timedOut` or `networkError`). */
  status: number;
  location: string | null;
  /** The raw `Set-Cookie` headers. */
  setCookies: string[];
  body: string;
  /** Milliseconds from sending the request to the end of the body (or to the failure). */
  millis: number;
  /** The client's deadline passed before the answer was complete. */
  timedOut: boolean;
  /** The connection failed (refused, reset) before an answer. */
  networkError?: string;
}

function failed(networkError: string | undefined): Omit<HttpAnswer, "method" | "path" | "millis"> {
  return { status: 0, location: null, setCookies: [], body: "", timedOut: false, ...(networkError ? { networkError } : {}) };
}

/** Sends requests to one origin over a keep-alive agent. */
export class HttpTarget {
  readonly origin: string;
  readonly #agent: Agent;
  readonly #deadlineMillis: number;

  /** `maxSockets`: connections the agent opens at most; `deadlineMillis`: the client-side timeout per request. */
  constructor(origin: string, { maxSockets, deadlineMillis }: { maxSockets: number; deadlineMillis: number }) {
    this.origin = origin;
    this.#agent = new Agent({ keepAlive: true, maxSockets });
    this.#deadlineMillis = deadlineMillis;
  }

  /** Sends one request; never rejects. */
  send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpAnswer> {
    const started = performance.now();
    const url = new URL(path, this.origin);
    return new Promise((resolve) => {
      let settled = false;
      function finish(answer: Omit<HttpAnswer, "method" | "path" | "millis">): void {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve({ method, path, millis: performance.now() - started, ...answer });
      }
      const outgoing = httpRequest(
        url,
        {
          method,
          agent: this.#agent,
          headers: body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", (error) => finish(failed(error.message)));
          incoming.on("end", () =>
            finish({
              status: incoming.statusCode ?? 0,
              location: incoming.headers.location ?? null,
              setCookies: incoming.headers["set-cookie"] ?? [],
              body: Buffer.concat(chunks).toString("utf8"),
              timedOut: false,
            }),
          );
        },
      );
      const deadline = setTimeout(() => {
        finish({ ...failed(undefined), timedOut: true });
        outgoing.destroy();
      }, this.#deadlineMillis);
      outgoing.on("error", (error) => finish(failed(error.message)));
      outgoing.end(body);
    });
  }

  /** Closes the agent's idle connections. */
  close(): void {
    this.#agent.destroy();
  }
}

/** The session cookie's name on http (no `__Secure-` prefix). */
export const SESSION_COOKIE = "authlib.session-token";

/** One visitor: a cookie jar and the auth routes a browser would call. */
export class Visitor {
  readonly jar = new CookieJar();
  readonly #target: HttpTarget;

  constructor(target: HttpTarget) {
    this.#target = target;
  }

  /** Sends a request with the jar's cookies and keeps the cookies it sets. */
  async send(method: string, path: string, form?: Record<string, string>): Promise<HttpAnswer> {
    const headers: Record<string, string> = {};
    if (this.jar.cookies.size > 0) headers.cookie = this.jar.header();
    let body: string | undefined;
    if (form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(form).toString();
    }
    const answer = await this.#target.send(method, path, headers, body);
    if (answer.setCookies.length > 0) {
      this.jar.apply(new Response(null, { headers: answer.setCookies.map((cookie): [string, string] => ["set-cookie", cookie]) }));
    }
    return answer;
  }

  /** GET /auth/csrf: the answer and its token (undefined when the answer has none). */
  async csrf(): Promise<{ answer: HttpAnswer; token: string | undefined }> {
    const answer = await this.send("GET", "/auth/csrf");
    return { answer, token: answer.status === 200 ? (JSON.parse(answer.body) as { csrfToken?: string }).csrfToken : undefined };
  }

  /**
   * The credentials sign-in a browser does: GET /auth/csrf, then POST /auth/callback/credentials. The
   * answers of both steps; the second is absent when the first failed.
   */
  async signIn(email: string, password: string, callbackUrl = "/home"): Promise<{ csrf: HttpAnswer; callback?: HttpAnswer }> {
    const { answer, token } = await this.csrf();
    if (!token) return { csrf: answer };
    const callback = await this.send("POST", "/auth/callback/credentials", { csrfToken: token, email, password, callbackUrl });
    return { csrf: answer, callback };
  }

  /** POST /auth/signout with a fresh CSRF token; the answers of both steps. */
  async signOut(callbackUrl = "/bye"): Promise<{ csrf: HttpAnswer; signout?: HttpAnswer }> {
    const { answer, token } = await this.csrf();
    if (!token) return { csrf: answer };
    return { csrf: answer, signout: await this.send("POST", "/auth/signout", { csrfToken: token, callbackUrl }) };
  }

  /** GET /auth/session. */
  session(): Promise<HttpAnswer> {
    return this.send("GET", "/auth/session");
  }

  /** The session token cookie, if the jar holds one. */
  get sessionToken(): string | undefined {
    return this.jar.get(SESSION_COOKIE);
  }
}
