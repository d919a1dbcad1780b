/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps the parsed mails (mailparser), for email
 * sign-in tests. `refuse` makes it reject recipients (with a reply of `refusal`'s making). And a broken one: a port that accepts connections
 * and hangs up at once, as a crashing mail server does.
 */
import { type AddressInfo, createServer } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export async function startSmtpServer() {
  const mails: ParsedMail[] = [];
  /** `refuse`: reject every recipient, with the reply `refusal` makes of the address (a real server's quotes it). */
  const state = { refuse: false, refusal: (_address: string) => "Mailbox unavailable" };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(state.refuse ? Object.assign(new Error(state.refusal(address.address)), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    port,
    mails,
    state,
    transport: { host: "127.0.0.1", port, secure: false, ignoreTLS: true },
    /** The first mail after the first `since` ones, waiting up to 5 s for the parser; throws when none came. */
    async nextMail(since: number): Promise<ParsedMail> {
      const deadline = Date.now() + 5000;
      while (mails.length <= since && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      const mail = mails[since];
      if (!mail) throw new Error("no mail arrived");
      return mail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A TCP port on 127.0.0.1 that accepts every connection and closes it before saying anything. */
export async function startHangUpServer() {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
