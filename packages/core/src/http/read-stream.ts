/**
 * Reading a body stream without ever holding more than a limit: used for request bodies and for every
 * provider response. The reader stops (and cancels the stream) as soon as a chunk would pass the limit.
 *
 * @module http/read-stream
 */

/** What {@link readAtMost} found: the bytes, or that the body is larger than the limit (`read` bytes seen). */
export type BoundedRead = { bytes: Uint8Array } | { tooLarge: true; read: number };

/**
 * Reads `body` into one buffer of at most `limit` bytes. The cancel is not awaited: cancelling a branch of
 * a tee (`request.clone()`) settles only once the source ends, which a client can postpone forever, and a
 * provider's slow stream must not hold the caller either. Read errors reject.
 */
export async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<BoundedRead> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return { tooLarge: true, read: size };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}
