/**
 * Type declarations for the two dev-tool packages that ship none: the part of their API the demo uses.
 */

declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  /** What an interaction (the OP's login page) is about. */
  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
  }

  /** The permissions a user gave a client. */
  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  /** An OpenID Provider (`new Provider(issuer, configuration)`). */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    /** Trust X-Forwarded-* headers. */
    proxy: boolean;
    /** The Node request handler of every OP endpoint. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
    };
  }
}

declare module "mailparser" {
  import type { Readable } from "node:stream";

  /** One or more addresses of a header, parsed. */
  export interface AddressObject {
    value: Array<{ address?: string; name: string }>;
    /** The header as text, e.g. `Ada <ada@example.com>`. */
    text: string;
  }

  /** A parsed mail. */
  export interface ParsedMail {
    subject?: string;
    from?: AddressObject;
    to?: AddressObject | AddressObject[];
    date?: Date;
    messageId?: string;
    text?: string;
    /** The HTML part, or `false` when the mail has none. */
    html: string | false;
  }

  /** Parses a whole mail (RFC 5322 source). */
  export function simpleParser(source: Readable | Buffer | string): Promise<ParsedMail>;
}
