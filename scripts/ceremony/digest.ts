/** File digests, streamed (a Hermez ptau is up to hundreds of GB). */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';

async function digestFile(
  algorithm: string,
  file: string,
  onFraction?: (f: number) => void,
): Promise<Buffer> {
  const h = createHash(algorithm);
  const size = statSync(file).size || 1;
  let read = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 22 })) {
    h.update(chunk as Buffer);
    read += (chunk as Buffer).length;
    onFraction?.(read / size);
  }
  return h.digest();
}

/** SHA-256 of a file as 0x-prefixed lowercase hex (the form clients check). */
export async function sha256File(file: string): Promise<string> {
  return `0x${(await digestFile('sha256', file)).toString('hex')}`;
}

/** blake2b-512 of a file as 128 hex digits (`b2sum`, and the snarkjs README's ptau table). */
export async function blake2bFile(file: string, onFraction?: (f: number) => void): Promise<string> {
  return (await digestFile('blake2b512', file, onFraction)).toString('hex');
}
