/**
 * Types of the test-only packages without declarations of their own, as far as these tests (and the core
 * test helpers they import) use them.
 */
declare module "mailparser" {
  import type { Readable } from "node:stream";

  /** The addresses of one header; `text` is the header as written. */
  export interface AddressObject {
    text: string;
    value: Array<{ address?: string; name: string }>;
  }

  /** A mail as `simpleParser` gives it. */
  export interface ParsedMail {
    subject?: string;
    to?: AddressObject | AddressObject[];
    text?: string;
    html: string | false;
  }

  export function simpleParser(source: Readable | Buffer | string): Promise<ParsedMail>;
}
