/**
 * "Export state" and "Restore state": one text file holding the two sealed blobs a game needs on another device —
 * the session record (sealed under the wallet's key: it holds the session key) and the player state (sealed under
 * the session key's: `PlayerVault.exportBlob`).
 *
 * Why a passphrase on top: the wallet's key comes from a signature of a fixed text, which any site can ask the wallet
 * for (wallets do not bind `personal_sign` to an origin). A phishing page holding that signature and the file could
 * open the session key. So the file (version 2) is sealed once more, under a key the wallet cannot make: scrypt of
 * a passphrase the player chooses, with XChaCha20-Poly1305. Opening it takes the passphrase and the wallet.
 *
 * The scrypt parameters travel in the file (so they can be raised later) but only within bounds: a hostile file can
 * neither make the page allocate more than MAX_N·r·128 bytes nor downgrade below the production cost. Every field of
 * the header is associated data, so editing one fails the tag. Version 1 files (no passphrase, made before) still
 * restore: they are as strong as they ever were, and refusing them would strand those games.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64ToBytes, bytesToBase64 } from '@shroud/sdk/base64.ts';

const TYPE = 'shroud-web-game';

/** scrypt cost of every export this page writes: 2^17 · 8 · 128 bytes = 128 MiB, ~0.6 s in Node 24 on this machine. */
export const EXPORT_KDF = { N: 2 ** 17, r: 8, p: 1 } as const;
/** The largest N a file may ask for (256 MiB): beyond it, a file could stall or exhaust the page. */
const MAX_N = 2 ** 18;
/** Passphrases shorter than this are refused at export. */
export const MIN_PASSPHRASE = 10;

export interface GameExport {
  session: string;
  /** Null before the seat's state was first saved (e.g. still in the lobby). */
  state: string | null;
}

/** What `openExport` found: the blobs, and whether the file was an unprotected version 1 export. */
export interface OpenedExport extends GameExport {
  protected: boolean;
}

export class ExportFileError extends Error {
  override name = 'ExportFileError';
}

interface KdfHeader {
  name: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
}

function fromBase64(s: unknown, field: string, bytes?: number): Uint8Array {
  const out = base64ToBytes(s);
  if (!out) throw new ExportFileError(`this export is damaged (${field} is not base64)`);
  if (bytes !== undefined && out.length !== bytes)
    throw new ExportFileError(`this export is damaged (${field} is not ${bytes} bytes)`);
  return out;
}

/** The passphrase as scrypt takes it: Unicode NFKC, so the same words typed on another keyboard give the same key. */
const passphraseBytes = (p: string) => utf8ToBytes(p.normalize('NFKC'));

/** Associated data: the file type, version and every KDF parameter, so none can be edited. */
const headerBytes = (k: KdfHeader) =>
  utf8ToBytes(`${TYPE}|v2|${k.name}|N=${k.N}|r=${k.r}|p=${k.p}|salt=${k.salt}`);

function checkKdf(k: unknown): KdfHeader {
  const o = k as Partial<KdfHeader> | null;
  if (typeof o !== 'object' || o === null || o.name !== 'scrypt')
    throw new ExportFileError('this export is damaged (unknown key derivation)');
  const { N, r, p } = o;
  const pow2 = typeof N === 'number' && Number.isSafeInteger(N) && N > 0 && (N & (N - 1)) === 0;
  if (!pow2 || N < EXPORT_KDF.N || N > MAX_N || r !== EXPORT_KDF.r || p !== EXPORT_KDF.p)
    throw new ExportFileError(
      `this export asks for scrypt N=${String(N)}, r=${String(r)}, p=${String(p)}: this page takes N from ${EXPORT_KDF.N} to ${MAX_N}, r=${EXPORT_KDF.r}, p=${EXPORT_KDF.p}`,
    );
  fromBase64(o.salt, 'kdf.salt', 16);
  return { name: 'scrypt', N, r, p, salt: o.salt as string };
}

async function keyOf(passphrase: string, k: KdfHeader): Promise<Uint8Array> {
  return scryptAsync(passphraseBytes(passphrase), fromBase64(k.salt, 'kdf.salt', 16), {
    N: k.N,
    r: k.r,
    p: k.p,
    dkLen: 32,
  });
}

/** The export file: both blobs sealed under `passphrase` (at least MIN_PASSPHRASE characters). */
export async function exportText(e: GameExport, passphrase: string): Promise<string> {
  if ([...passphrase.normalize('NFKC')].length < MIN_PASSPHRASE)
    throw new ExportFileError(
      `choose a passphrase of at least ${MIN_PASSPHRASE} characters to export the game`,
    );
  const kdf: KdfHeader = { name: 'scrypt', ...EXPORT_KDF, salt: bytesToBase64(randomBytes(16)) };
  const nonce = randomBytes(24);
  const plain = utf8ToBytes(JSON.stringify({ session: e.session, state: e.state }));
  const box = xchacha20poly1305(await keyOf(passphrase, kdf), nonce, headerBytes(kdf)).encrypt(plain);
  const file = { shroud: TYPE, v: 2, kdf, nonce: bytesToBase64(nonce), box: bytesToBase64(box) };
  return `${JSON.stringify(file, null, 1)}\n`;
}

function parseFile(text: string): Record<string, unknown> {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    throw new ExportFileError('this file is not a Shroud game export (not JSON)');
  }
  if (typeof o !== 'object' || o === null || o.shroud !== TYPE)
    throw new ExportFileError('this file is not a Shroud game export');
  if (o.v !== 1 && o.v !== 2) throw new ExportFileError(`export version ${String(o.v)} is not 1 or 2`);
  return o;
}

function blobs(o: Record<string, unknown>): GameExport {
  if (typeof o.session !== 'string' || (o.state !== null && typeof o.state !== 'string'))
    throw new ExportFileError('this export is damaged (session and state must be text)');
  return { session: o.session, state: o.state };
}

/**
 * Opens an export: version 2 with its passphrase (a wrong one, or any edited byte, is refused and nothing is
 * returned), version 1 as it is (`protected: false`).
 */
export async function openExport(text: string, passphrase: string): Promise<OpenedExport> {
  const o = parseFile(text);
  if (o.v === 1) return { ...blobs(o), protected: false };
  const kdf = checkKdf(o.kdf);
  const nonce = fromBase64(o.nonce, 'nonce', 24);
  const box = fromBase64(o.box, 'box');
  if (passphrase === '')
    throw new ExportFileError('this export is protected by a passphrase: enter it first');
  let plain: Uint8Array;
  try {
    plain = xchacha20poly1305(await keyOf(passphrase, kdf), nonce, headerBytes(kdf)).decrypt(box);
  } catch {
    throw new ExportFileError('wrong passphrase, or the export file was changed');
  }
  let inner: Record<string, unknown>;
  try {
    inner = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain));
  } catch {
    throw new ExportFileError('this export is damaged (its content is not JSON)');
  }
  return { ...blobs(inner), protected: true };
}

/** Offers `text` as a download named `name`. */
export function download(name: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
