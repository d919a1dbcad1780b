/**
 * The types of the message catalogs (types only: no runtime code).
 *
 * @module i18n/types
 */
import type { en } from "./catalogs/en.js";

/** The key of one text of the built-in pages and mails (`"signin.title"`, `"mail.signIn.subject"`, …). */
export type MessageKey = keyof typeof en;

/** A complete catalog: every text of the built-in pages and mails in one language. `{name}` marks a value filled in. */
export type Messages = Record<MessageKey, string>;

/**
 * The texts one language adds or overrides (config `messages`): any subset of the keys. A key that is not
 * one of ours is a type error; a key left out falls back to the shipped catalog of the language (or its
 * base language), then to English.
 */
export type MessageOverrides = Partial<Messages>;

/** The texts of the language a request gets, with what `<html lang dir>` needs. */
export interface Translator {
  /** The chosen language tag (`"de"`, `"pt-BR"`, `"ar"`). A key of the catalogs, never raw header text. */
  readonly locale: string;
  /** `"rtl"` for Arabic, Hebrew, Persian and Urdu (and their regional tags), else `"ltr"`. */
  readonly dir: "ltr" | "rtl";
  /** The text of `key` with each `{name}` replaced by `values[name]` (a name without a value stays as written). */
  t(key: MessageKey, values?: Readonly<Record<string, string | number>>): string;
}
