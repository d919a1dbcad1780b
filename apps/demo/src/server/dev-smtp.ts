/**
 * The demo's development SMTP server (`smtp-server`): it accepts every mail sent to it, parses it
 * (`mailparser`) and keeps it in the in-memory mailbox that /dev/mailbox shows. Nothing is delivered
 * anywhere: it is a development tool, started with the demo.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { DevMailbox } from "./mailbox";

/** Options of {@link startDevSmtpServer}. */
export interface DevSmtpOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port to listen on; `0` picks a free one. */
  port: number;
}

/** nodemailer transport options for a plain-text SMTP server without authentication. */
export interface DevSmtpTransport {
  host: string;
  port: number;
  secure: false;
  ignoreTLS: true;
}

/** A running development SMTP server. */
export interface DevSmtpServer {
  /** The port it listens on. */
  readonly port: number;
  /** How nodemailer reaches it (the Nodemailer provider's `server`). */
  readonly transport: DevSmtpTransport;
  /** The mails received so far. */
  readonly mailbox: DevMailbox;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Mails above this size are refused: sign-in mails are a few kilobytes. */
const MAX_MAIL_SIZE = 1024 * 1024;

/** Starts the development SMTP server. Rejects when the port is taken. */
export async function startDevSmtpServer(options: DevSmtpOptions): Promise<DevSmtpServer> {
  const host = options.host ?? "127.0.0.1";
  const mailbox = new DevMailbox();
  const server = new SMTPServer({
    authOptional: true,
    // Loopback only, so no TLS: nodemailer is told to skip STARTTLS (`ignoreTLS`).
    disabledCommands: ["STARTTLS", "AUTH"],
    size: MAX_MAIL_SIZE,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mailbox.add(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
  // A broken connection is the client's problem; the server goes on.
  server.on("error", (error) => console.warn(`[authlib demo] dev SMTP server: ${error.message}`));

  return {
    port,
    transport: { host, port, secure: false, ignoreTLS: true },
    mailbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
