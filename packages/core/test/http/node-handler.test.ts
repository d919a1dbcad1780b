/**
 * `toNodeHandler` (`@authlib/core/node`) over a real `node:http` server on 127.0.0.1: credentials sign-in,
 * the session and sign-out through it, every Set-Cookie reaching the client as its own header, the
 * connection address reaching `Auth()`, origin decided by `Auth()`'s rules, and bodies over the bound
 * refused with 413 without taking the server down.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AuthRequestOptions } from "../../src/kernel/pipeline.js";
import { toNodeHandler } from "../../src/node.js";
import Credentials from "../../src/providers/credentials.js";
import type { AuthConfig } from "../../src/types/config.js";
import { CookieJar } from "../helpers/auth-client.js";

/** The options of every `handler` call of the configuration's instance: the real handler runs, its options are recorded. */
const seenOptions: Array<AuthRequestOptions | undefined> = [];
vi.mock("../../src/kernel/auth.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/kernel/auth.js")>();
  return {
    ...real,
    instanceFor: (config: AuthConfig) => {
      const instance = real.instanceFor(config);
      return {
        ...instance,
        handler: (request: Request, options?: AuthRequestOptions) => {
          seenOptions.push(options);
          return instance.handler(request, options);
        },
      };
    },
  };
});

const user = { id: "u-1", name: "Ada", email: "ada@example.com" };

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: "node-handler-test-secret-at-least-32-chars",
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: ({ email, password }) => (email === user.email && password === "right" ? user : null),
      }),
    ],
    ...overrides,
  };
}

async function listen(server: Server): Promise<string> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** One raw HTTP/1.1 exchange, so a test controls the Host header and sees every Set-Cookie line. */
function raw(
  origin: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: init.method ?? "GET", headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

describe("toNodeHandler over node:http", () => {
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer(toNodeHandler(config(), { env: false, maxBodyBytes: 4096 }));
    origin = await listen(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A browser stand-in over real HTTP: the jar keeps what the Set-Cookie lines say. */
  function browser() {
    const jar = new CookieJar();
    return {
      jar,
      async send(path: string, init: { method?: string; form?: Record<string, string> } = {}) {
        const headers: Record<string, string> = {};
        if (jar.cookies.size > 0) headers.cookie = jar.header();
        let body: string | undefined;
        if (init.form) {
          headers["content-type"] = "application/x-www-form-urlencoded";
          body = new URLSearchParams(init.form).toString();
        }
        const response = await raw(origin, path, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
        const setCookie = response.headers["set-cookie"] ?? [];
        const web = new Headers();
        for (const line of setCookie) web.append("set-cookie", line);
        jar.apply(new Response(null, { headers: web }));
        return response;
      },
    };
  }

  it("signs in with credentials, reads the session, signs out", async () => {
    const client = browser();
    const csrf = await client.send("/auth/csrf");
    expect(csrf.status).toBe(200);
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };

    const wrong = await client.send("/auth/callback/credentials", { form: { csrfToken, email: user.email, password: "wrong" } });
    expect(wrong.status).toBe(302);
    expect(wrong.headers.location).toContain("error=CredentialsSignin");

    const signIn = await client.send("/auth/callback/credentials", {
      form: { csrfToken, email: user.email, password: "right", callbackUrl: `${origin}/home` },
    });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.location).toBe(`${origin}/home`);
    const lines = signIn.headers["set-cookie"] as string[];
    // Each cookie is its own header line (never comma-joined).
    expect(lines.every((line) => line.split(/;\s*/)[0]?.includes("="))).toBe(true);
    expect(lines.some((line) => line.startsWith("authlib.session-token="))).toBe(true);

    const session = await client.send("/auth/session");
    expect(session.status).toBe(200);
    expect(session.headers["cache-control"]).toContain("no-store");
    expect(JSON.parse(session.body).user).toMatchObject({ name: "Ada", email: user.email });

    const signOut = await client.send("/auth/signout", { form: { csrfToken } });
    expect(signOut.status).toBe(302);
    expect(client.jar.get("authlib.session-token")).toBeUndefined();
    expect(JSON.parse((await client.send("/auth/session")).body)).toBeNull();
  });

  it("passes several Set-Cookie headers one by one (CSRF and callback URL on the sign-in page)", async () => {
    const page = await raw(origin, "/auth/signin?callbackUrl=%2Fhome");
    expect(page.status).toBe(200);
    const names = (page.headers["set-cookie"] as string[]).map((line) => line.split("=")[0]);
    expect(names).toEqual(expect.arrayContaining(["authlib.csrf-token", "authlib.callback-url"]));
  });

  it("refuses a body over the bound with 413, declared or streamed, and goes on serving", async () => {
    const declared = await raw(origin, "/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: Buffer.alloc(5000, "a"),
    });
    expect(declared.status).toBe(413);

    // Chunked: no Content-Length, so the bound is found while reading.
    const streamed = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${origin}/auth/callback/credentials`,
        { method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1000, "b"));
      req.end();
    });
    expect(streamed).toBe(413);

    // Far over the bound, still streaming when the answer is written: the answer still arrives.
    const large = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${origin}/auth/callback/credentials`,
        { method: "POST", headers: { "transfer-encoding": "chunked" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) =>
        error.code === "EPIPE" || error.code === "ECONNRESET" ? undefined : reject(error),
      );
      const chunk = Buffer.alloc(64 * 1024, "c");
      let sent = 0;
      const pump = () => {
        while (sent < 4 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
    expect(large).toBe(413);

    expect((await raw(origin, "/auth/providers")).status).toBe(200);
  });

  it("answers 400 for a malformed Host, and lets Auth()'s origin rules decide about a well-formed one", async () => {
    expect((await raw(origin, "/auth/providers", { headers: { host: "a b" } })).status).toBe(400);

    const listed = createServer(toNodeHandler(config({ trustHost: undefined, trustedHosts: ["app.example.com"] }), { env: false }));
    const listedOrigin = await listen(listed);
    try {
      const refused = await raw(listedOrigin, "/auth/providers", { headers: { host: "evil.example" } });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error).toBe("UntrustedHost");
      const trusted = await raw(listedOrigin, "/auth/providers", { headers: { host: "app.example.com" } });
      expect(JSON.parse(trusted.body).credentials.callbackUrl).toBe("http://app.example.com/auth/callback/credentials");
    } finally {
      await new Promise<void>((resolve) => listed.close(() => resolve()));
    }
  });

  it("passes the connection address as Auth()'s clientAddress, never a header", async () => {
    seenOptions.length = 0;
    const response = await raw(origin, "/auth/session", { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(response.status).toBe(200);
    expect(seenOptions).toEqual([{ clientAddress: "127.0.0.1" }]);
  });

  it("fills the configuration from env once, when the handler is made", () => {
    const filled = config({ secret: undefined, url: undefined });
    toNodeHandler(filled, { env: { AUTH_SECRET: "from-env-secret-at-least-32-characters", AUTHLIB_URL: "https://app.example.com" } });
    expect(filled.secret).toEqual(["from-env-secret-at-least-32-characters"]);
    expect(filled.url).toBe("https://app.example.com");
  });
});
