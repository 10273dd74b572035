/** Standard base64 of bytes, for sealed blobs carried as text (the vault, web exports). Browser-safe. */

export function bytesToBase64(b: Uint8Array): string {
  let s = '';
  // In chunks: spreading a large array into one call overflows the argument limit.
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The bytes of `s`, or null when it is not standard base64 (the caller names the field in its own error). */
export function base64ToBytes(s: unknown): Uint8Array | null {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null; // a length atob refuses
  }
}
