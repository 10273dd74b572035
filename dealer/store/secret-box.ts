import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets at rest. The associated data names the row (e.g. the game id), so a
 * ciphertext copied into another row fails to open.
 */
export interface SecretBox {
  seal(plaintext: string, aad: string): string;
  open(sealed: string, aad: string): string;
}

const PREFIX = 'v1:';

export function secretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('the at-rest key must be 32 bytes');
  const k = Buffer.from(key);
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', k, iv);
      c.setAAD(Buffer.from(aad));
      const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
      return PREFIX + Buffer.concat([iv, ct, c.getAuthTag()]).toString('base64');
    },
    open(sealed, aad) {
      if (!sealed.startsWith(PREFIX)) throw new Error('unknown secret format');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      if (raw.length < 28) throw new Error('secret too short');
      const d = createDecipheriv('aes-256-gcm', k, raw.subarray(0, 12));
      d.setAAD(Buffer.from(aad));
      d.setAuthTag(raw.subarray(raw.length - 16));
      // A wrong key or a tampered row throws here: the dealer refuses to start dealing from it.
      return Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]).toString('utf8');
    },
  };
}
