/**
 * Email sign-in through the HTTP mail services (Resend, SendGrid, Postmark, Mailgun), each against a
 * local node:http fake of its send endpoint that checks the request the service documents (method,
 * path, auth header, body), keeps the message, and answers like the service. The test follows the link
 * in the kept message to a session. Failures of the service (4xx/5xx, unreachable, no key) end on the
 * sign-in page with `EmailSignInError`, like an SMTP failure.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvDefaults } from "../../src/env/defaults.js";
import Mailgun, { MAILGUN_BASE_URLS } from "../../src/providers/mailgun.js";
import Postmark from "../../src/providers/postmark.js";
import Resend from "../../src/providers/resend.js";
import SendGrid from "../../src/providers/sendgrid.js";
import type { EmailConfig } from "../../src/providers/types.js";
import { memoryRateLimitStore } from "../../src/rate-limit/store.js";
import type { AuthConfig } from "../../src/types/config.js";
import { authClient } from "../helpers/auth-client.js";
import { closeSharedPglite, freshDatabase } from "../helpers/database.js";
import { type NodeServer, startNodeServer } from "../helpers/node-server.js";

const secret = "email-services-test-secret-0123456789";
const apiKey = "test-api-key-0123456789";
const from = "Demo <no-reply@demo.test>";

/** What a fake kept of an accepted message: recipient, subject and both bodies. */
interface KeptMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A fake service: how to make the provider, and how to read (and check) one send request. */
interface ServiceCase {
  id: string;
  make: (options: { baseUrl: string; apiKey?: string }) => EmailConfig;
  method: "POST";
  path: string;
  /** Asserts the documented auth header. */
  checkAuth: (headers: Headers) => void;
  /** Parses the documented body into the kept mail, asserting its documented fields. */
  readBody: (request: Request) => Promise<KeptMail>;
  /** The documented success answer. */
  success: () => Response;
}

const cases: ServiceCase[] = [
  {
    // https://resend.com/docs/api-reference/emails/send-email
    id: "resend",
    make: (options) => Resend({ from, ...options }),
    method: "POST",
    path: "/emails",
    checkAuth: (headers) => expect(headers.get("authorization")).toBe(`Bearer ${apiKey}`),
    readBody: async (request) => {
      expect(request.headers.get("content-type")).toBe("application/json");
      const body = (await request.json()) as { from: string; to: string[]; subject: string; text: string; html: string };
      expect(body.from).toBe(from);
      expect(body.to).toHaveLength(1);
      return { to: body.to[0] as string, subject: body.subject, text: body.text, html: body.html };
    },
    success: () => Response.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }),
  },
  {
    // https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
    id: "sendgrid",
    make: (options) => SendGrid({ from, ...options }),
    method: "POST",
    path: "/v3/mail/send",
    checkAuth: (headers) => expect(headers.get("authorization")).toBe(`Bearer ${apiKey}`),
    readBody: async (request) => {
      expect(request.headers.get("content-type")).toBe("application/json");
      const body = (await request.json()) as {
        personalizations: Array<{ to: Array<{ email: string }> }>;
        from: { email: string; name?: string };
        subject: string;
        content: Array<{ type: string; value: string }>;
      };
      expect(body.from).toEqual({ email: "no-reply@demo.test", name: "Demo" });
      expect(body.content.map((c) => c.type)).toEqual(["text/plain", "text/html"]);
      return {
        to: body.personalizations[0]?.to[0]?.email as string,
        subject: body.subject,
        text: body.content[0]?.value as string,
        html: body.content[1]?.value as string,
      };
    },
    success: () => new Response(null, { status: 202 }),
  },
  {
    // https://postmarkapp.com/developer/api/email-api#send-a-single-email
    id: "postmark",
    make: (options) => Postmark({ from, ...options }),
    method: "POST",
    path: "/email",
    checkAuth: (headers) => {
      expect(headers.get("x-postmark-server-token")).toBe(apiKey);
      expect(headers.get("accept")).toBe("application/json");
    },
    readBody: async (request) => {
      expect(request.headers.get("content-type")).toBe("application/json");
      const body = (await request.json()) as Record<string, string>;
      expect(body.From).toBe(from);
      expect(body.MessageStream).toBe("outbound");
      return { to: body.To as string, subject: body.Subject as string, text: body.TextBody as string, html: body.HtmlBody as string };
    },
    success: () =>
      Response.json({
        To: "ada@example.com",
        SubmittedAt: new Date().toISOString(),
        MessageID: crypto.randomUUID(),
        ErrorCode: 0,
        Message: "OK",
      }),
  },
  {
    // https://documentation.mailgun.com/docs/mailgun/api-reference/openapi-final/tag/Messages/
    id: "mailgun",
    make: (options) => Mailgun({ from, domain: "mg.demo.test", ...options }),
    method: "POST",
    path: "/v3/mg.demo.test/messages",
    checkAuth: (headers) => expect(headers.get("authorization")).toBe(`Basic ${Buffer.from(`api:${apiKey}`).toString("base64")}`),
    readBody: async (request) => {
      expect(request.headers.get("content-type")).toMatch(/^application\/x-www-form-urlencoded/);
      const form = new URLSearchParams(await request.text());
      expect(form.get("from")).toBe(from);
      return {
        to: form.get("to") as string,
        subject: form.get("subject") as string,
        text: form.get("text") as string,
        html: form.get("html") as string,
      };
    },
    success: () => Response.json({ id: "<20240101000000.1@mg.demo.test>", message: "Queued. Thank you." }),
  },
];

/** A running fake of one service: what it kept, and the status it answers with (success unless set). */
interface Fake {
  server: NodeServer;
  mails: KeptMail[];
  failures: string[];
  answerStatus?: number;
}

const fakes = new Map<string, Fake>();

function startFake(service: ServiceCase): Promise<Fake> {
  const fake: Fake = { server: undefined as unknown as NodeServer, mails: [], failures: [] };
  return startNodeServer(
    async (request) => {
      try {
        expect(request.method).toBe(service.method);
        expect(new URL(request.url).pathname).toBe(service.path);
        service.checkAuth(request.headers);
        fake.mails.push(await service.readBody(request));
      } catch (error) {
        // A request the service would refuse: the fake refuses it too, and the test sees why.
        fake.failures.push((error as Error).message);
        return Response.json({ message: "bad request" }, { status: 400 });
      }
      if (fake.answerStatus) return Response.json({ message: "refused" }, { status: fake.answerStatus });
      return service.success();
    },
    { host: "127.0.0.1", basePath: "" },
  ).then((server) => {
    fake.server = server;
    return fake;
  });
}

beforeAll(async () => {
  for (const service of cases) fakes.set(service.id, await startFake(service));
});
afterAll(async () => {
  await Promise.all([...fakes.values()].map((fake) => fake.server.close()));
  await closeSharedPglite();
});

async function setup(provider: EmailConfig) {
  const db = await freshDatabase();
  const logs: string[] = [];
  const config: AuthConfig = {
    secret,
    trustHost: true,
    adapter: db.adapter,
    providers: [{ ...provider, rateLimit: { store: memoryRateLimitStore() } }],
    logger: { error: (e) => logs.push(`${e.name}: ${e.message}`) },
  };
  return { config, logs, client: authClient(config) };
}

async function requestLink(client: ReturnType<typeof authClient>, id: string, email: string) {
  const csrfToken = await client.csrf();
  return client.send(`/auth/signin/${id}`, { form: { csrfToken, email, callbackUrl: "/welcome" } });
}

describe.each(cases)("email sign-in through $id", (service) => {
  const fake = () => fakes.get(service.id) as Fake;

  it("sends the documented request with the shared template, and its link signs the user in", async () => {
    const { client } = await setup(service.make({ baseUrl: fake().server.origin, apiKey }));
    const sent = await requestLink(client, service.id, "Ada@Example.com");
    expect(fake().failures).toEqual([]);
    expect(sent.headers.get("location")).toBe(`http://localhost:3000/auth/verify-request?provider=${service.id}&type=email`);

    const mail = fake().mails.at(-1) as KeptMail;
    expect(mail.to).toBe("ada@example.com");
    expect(mail.subject).toBe("Sign in to localhost:3000");
    const link = mail.text.match(new RegExp(`http://localhost:3000/auth/callback/${service.id}\\?\\S+`))?.[0];
    if (!link) throw new Error("no sign-in link in the text part");
    // The HTML part carries the same link, escaped (& as &amp;).
    expect(mail.html).toContain(link.replaceAll("&", "&amp;"));
    // And the one-time code, in both parts.
    const code = mail.text.match(/asked to sign in: (\d{6})\n/)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(`>${code}</td>`);

    const signedIn = await client.send(link);
    expect(signedIn.headers.get("location")).toBe("http://localhost:3000/welcome");
    const session = await client.session();
    expect(session?.user.email).toBe("ada@example.com");
  });

  it.each([401, 500])("reports EmailSignInError when the service answers HTTP %i", async (status) => {
    const { client, logs } = await setup(service.make({ baseUrl: fake().server.origin, apiKey }));
    fake().answerStatus = status;
    try {
      const response = await requestLink(client, service.id, "grace@example.com");
      expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
    } finally {
      fake().answerStatus = undefined;
    }
    expect(logs.some((line) => line.startsWith("EmailSignInError"))).toBe(true);
    expect(logs.join("\n")).not.toContain(apiKey);
  });

  it("reports EmailSignInError when the service cannot be reached", async () => {
    const closed = await startNodeServer(() => new Response(null), { host: "127.0.0.1", basePath: "" });
    await closed.close();
    const { client } = await setup(service.make({ baseUrl: closed.origin, apiKey }));
    const response = await requestLink(client, service.id, "grace@example.com");
    expect(response.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
  });

  it(`takes the API key from AUTH_${service.id.toUpperCase()}_KEY, and refuses to send without one`, async () => {
    const withoutKey = await setup(service.make({ baseUrl: fake().server.origin }));
    const before = fake().server.requests.length;
    const refused = await requestLink(withoutKey.client, service.id, "grace@example.com");
    expect(refused.headers.get("location")).toBe("http://localhost:3000/auth/signin?error=EmailSignInError&code=not-sent");
    expect(fake().server.requests.length).toBe(before);

    const fromEnv = await setup(service.make({ baseUrl: fake().server.origin }));
    setEnvDefaults({ [`AUTH_${service.id.toUpperCase()}_KEY`]: apiKey }, fromEnv.config);
    const sent = await requestLink(authClient(fromEnv.config), service.id, "grace@example.com");
    expect(sent.headers.get("location")).toBe(`http://localhost:3000/auth/verify-request?provider=${service.id}&type=email`);
    expect(fake().mails.at(-1)?.to).toBe("grace@example.com");
  });
});

describe("Mailgun's sending domain", () => {
  it("is taken from the address in `from` unless `domain` is set, as Auth.js does; neither is a named error", () => {
    expect(Mailgun({ from: "Acme <no-reply@MG.Acme.test>" }).domain).toBe("mg.acme.test");
    expect(Mailgun({ from: "no-reply@mg.acme.test" }).domain).toBe("mg.acme.test");
    expect(Mailgun({ from: "no-reply@mg.acme.test", domain: "other.test" }).domain).toBe("other.test");
    for (const from of [undefined, "no-reply", "Acme <no-reply@>", "x@bad domain"]) {
      expect(() => Mailgun({ from })).toThrow(
        "The Mailgun provider needs the sending domain: set `from` to an address on it, or `domain`.",
      );
    }
  });
});

describe("mail service base URLs", () => {
  it("sends to the EU API origin with region: eu, and an explicit baseUrl wins", () => {
    expect(Mailgun({ domain: "mg.demo.test", region: "eu" }).baseUrl).toBe(MAILGUN_BASE_URLS.eu);
    expect(Mailgun({ domain: "mg.demo.test" }).baseUrl).toBe(MAILGUN_BASE_URLS.us);
    expect(Mailgun({ domain: "mg.demo.test", region: "eu", baseUrl: "http://127.0.0.1:1" }).baseUrl).toBe("http://127.0.0.1:1");
    expect(() => Mailgun({ domain: "" })).toThrow(/domain/);
    // An unset env variable passed through keeps the default.
    expect(Mailgun({ domain: "mg.demo.test", region: "eu", baseUrl: undefined }).baseUrl).toBe(MAILGUN_BASE_URLS.eu);
    expect(Resend({ baseUrl: undefined, from: undefined }).baseUrl).toBe("https://api.resend.com");
  });
});
