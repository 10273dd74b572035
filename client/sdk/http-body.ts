/**
 * Response bodies read with a size cap: a hostile or broken host (a dealer, a lobby, an artifact mirror) cannot
 * fill the player's memory by answering with an endless body. Browser-safe (fetch streams only).
 */

/**
 * The most bytes the SDK reads of a dealer's or lobby's JSON answer: well above the largest honest one (a
 * reveal of the ruleset's most tiles with their Merkle paths, a map proof of the largest board's chunks).
 */
export const ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** A body over its cap, or longer than its declared length. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
}

/** A response body, refused past `max` bytes (a hostile host cannot fill memory) or short of its length. */
export async function readBody(res: Response, max: number): Promise<Uint8Array> {
  const declared = res.headers.get('content-length');
  // A compressed response's Content-Length counts the encoded bytes, not the ones the body stream yields.
  const encoded = (res.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const length = !encoded && declared !== null && /^[0-9]+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined && length > max)
    throw new BodyTooLargeError(`${length} bytes, over the ${max}-byte limit`);
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  // One allocation when the length is known; else chunks joined at the end.
  const out = length !== undefined ? new Uint8Array(length) : undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > (length ?? max)) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(
        length !== undefined ? 'longer than its Content-Length' : `over the ${max}-byte limit`,
      );
    }
    if (out) out.set(value, total);
    else chunks.push(value);
    total += value.byteLength;
  }
  if (out) {
    if (total !== length) throw new Error(`truncated: ${total} of ${length} bytes`);
    return out;
  }
  const joined = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    joined.set(c, at);
    at += c.byteLength;
  }
  return joined;
}

/** A response body as UTF-8 text, refused past `max` bytes. */
export async function readText(res: Response, max = ANSWER_MAX_BYTES): Promise<string> {
  return new TextDecoder().decode(await readBody(res, max));
}
