/** Constant-time string comparison, runtime-agnostic (no node:crypto needed). */
const encoder = new TextEncoder();

/**
 * True when `a` and `b` are equal. The time taken depends only on the length of `b` (the secret side),
 * not on where the strings differ.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < y.length; i++) diff |= (x[i % (x.length || 1)] ?? 0) ^ (y[i] as number);
  return diff === 0;
}
