import { hexFromBytes } from './bytes.ts';

/**
 * Proving artifacts (a circuit's Groth16 zkey and its witness-generator wasm) are identified by the SHA-256 of
 * their bytes. The deploy registers these hashes in the VerifierRegistry beside each verifier
 * (`registerArtifacts`), so a client can fetch the files from any host and refuse a file the chain does not name.
 * SHA-256 rather than keccak: WebCrypto has it in every browser and Node, and `sha256sum` checks a static host.
 */

/** The artifact files a proof needs. */
export const ARTIFACT_KINDS = ['zkey', 'wasm'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** 0x-prefixed lowercase hex SHA-256 of each artifact file (bytes32 on-chain). */
export type ArtifactHashes = Record<ArtifactKind, `0x${string}`>;

/** SHA-256 of `bytes` as 0x-hex (WebCrypto: the same in Node and the browser). */
export async function artifactSha256(bytes: Uint8Array): Promise<`0x${string}`> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return hexFromBytes(new Uint8Array(digest)) as `0x${string}`;
}

/** An artifact's hash as it appears in URLs and file names: 64 lowercase hex digits, no 0x. */
export const ARTIFACT_HEX_RE = /^[0-9a-f]{64}$/;

/** True for a 0x-prefixed lowercase 32-byte hex hash (the `ArtifactHashes` form). */
export function isArtifactHash(v: string): v is `0x${string}` {
  return v.length === 66 && v.startsWith('0x') && ARTIFACT_HEX_RE.test(v.slice(2));
}

/**
 * The content-addressed file name of an artifact, `<sha256 hex>.<kind>` (no 0x: `sha256sum` prints the same
 * digits, so a static host's tree checks with `sha256sum -c`-style tooling). The dealer serves it under
 * `/v1/artifacts/`; `npm run artifacts:export` writes the same names.
 */
export function artifactFileName(hash: `0x${string}`, kind: ArtifactKind): string {
  return `${hash.slice(2).toLowerCase()}.${kind}`;
}
