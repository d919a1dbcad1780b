/**
 * Which cookies count as the chunks of a session cookie, and when chunks join back into a value
 * (http/cookie-chunks.ts). Only the exact shape authlib writes is readable.
 */
import { describe, expect, it } from "vitest";
import {
  CHUNK_SIZE,
  cookieNamesOf,
  hasChunkedCookie,
  MAX_CHUNKS,
  readChunkedCookie,
  splitIntoChunks,
} from "../../src/http/cookie-chunks.js";

const name = "authlib.session-token";

/** The cookies of a value split the way authlib writes them. */
function written(value: string): Record<string, string> {
  return Object.fromEntries(splitIntoChunks(name, value).map((c) => [c.name, c.value]));
}

describe("cookies belonging to a name", () => {
  it("a cookie with a different name of the same length, plus .0, is not a chunk", () => {
    const sameLength = "authlib.session-tokex";
    expect(sameLength).toHaveLength(name.length);
    const cookies = { [`${sameLength}.0`]: "planted" };
    expect(cookieNamesOf(cookies, name)).toEqual([]);
    expect(hasChunkedCookie(cookies, name)).toBe(false);
    expect(readChunkedCookie(cookies, name)).toBeUndefined();
  });

  it("a longer name that merely starts with the name is not a chunk", () => {
    expect(cookieNamesOf({ [`${name}x.0`]: "a", [`${name}.0x`]: "b", [`${name}.00`]: "c", [`${name}.1000`]: "d" }, name)).toEqual([]);
  });

  it("the plain cookie and numbered chunks up to three digits belong to it", () => {
    const cookies = { [name]: "a", [`${name}.0`]: "b", [`${name}.9`]: "c", [`${name}.10`]: "d", [`${name}.999`]: "e", other: "f" };
    expect(cookieNamesOf(cookies, name).sort()).toEqual([name, `${name}.0`, `${name}.10`, `${name}.9`, `${name}.999`].sort());
  });
});

describe("reading a chunked value", () => {
  it("a single plain cookie is its value; an empty one is no value", () => {
    expect(readChunkedCookie({ [name]: "value" }, name)).toBe("value");
    expect(readChunkedCookie({ [name]: "" }, name)).toBeUndefined();
    expect(readChunkedCookie({}, name)).toBeUndefined();
  });

  it("joins what splitIntoChunks wrote, for one to MAX_CHUNKS chunks", () => {
    for (const length of [CHUNK_SIZE, CHUNK_SIZE + 1, 2 * CHUNK_SIZE, MAX_CHUNKS * CHUNK_SIZE]) {
      const value = Array.from({ length }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
      expect(readChunkedCookie(written(value), name)).toBe(value);
    }
  });

  it("splits only a value longer than one chunk, into chunks of exactly CHUNK_SIZE but the last", () => {
    expect(splitIntoChunks(name, "x".repeat(CHUNK_SIZE))).toEqual([{ name, value: "x".repeat(CHUNK_SIZE) }]);
    const parts = splitIntoChunks(name, "y".repeat(2 * CHUNK_SIZE + 3));
    expect(parts.map((p) => [p.name, p.value.length])).toEqual([
      [`${name}.0`, CHUNK_SIZE],
      [`${name}.1`, CHUNK_SIZE],
      [`${name}.2`, 3],
    ]);
  });

  it("more than MAX_CHUNKS chunks are no value", () => {
    expect(readChunkedCookie(written("z".repeat(MAX_CHUNKS * CHUNK_SIZE + 1)), name)).toBeUndefined();
  });

  it("a single chunk of at most CHUNK_SIZE is read; one longer is not", () => {
    expect(readChunkedCookie({ [`${name}.0`]: "short" }, name)).toBe("short");
    expect(readChunkedCookie({ [`${name}.0`]: "q".repeat(CHUNK_SIZE) }, name)).toBe("q".repeat(CHUNK_SIZE));
    expect(readChunkedCookie({ [`${name}.0`]: "q".repeat(CHUNK_SIZE + 1) }, name)).toBeUndefined();
  });

  it("a last chunk longer than CHUNK_SIZE, or an earlier chunk shorter, is no value", () => {
    const full = "f".repeat(CHUNK_SIZE);
    expect(readChunkedCookie({ [`${name}.0`]: full, [`${name}.1`]: "g".repeat(CHUNK_SIZE + 1) }, name)).toBeUndefined();
    expect(readChunkedCookie({ [`${name}.0`]: full.slice(1), [`${name}.1`]: "g" }, name)).toBeUndefined();
    expect(readChunkedCookie({ [`${name}.0`]: full, [`${name}.1`]: "" }, name)).toBeUndefined();
  });

  it("a plain cookie next to a chunk is no value", () => {
    expect(readChunkedCookie({ [name]: "real", [`${name}.0`]: "planted" }, name)).toBeUndefined();
  });
});
