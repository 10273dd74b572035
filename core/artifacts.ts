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
  let hex = '0x';
  for (const b of new Uint8Array(digest)) hex += b.toString(16).padStart(2, '0');
  return hex as `0x${string}`;
}
