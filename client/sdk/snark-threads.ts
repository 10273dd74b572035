/**
 * snarkjs builds its BN254 curve once per process, with worker threads that keep Node alive until they
 * are ended. Call this when a process has finished proving and verifying.
 */
export async function releaseSnarkjsThreads(): Promise<void> {
  const g = globalThis as { curve_bn128?: { terminate(): Promise<void> } };
  await g.curve_bn128?.terminate();
  g.curve_bn128 = undefined;
}
