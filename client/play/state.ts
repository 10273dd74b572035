/**
 * The CLI player's state file: the seat's PlayerVault (client/sdk/vault.ts) in a FileStateStore (mode 0600,
 * atomic), its export and restore, and the join that resumes from it.
 */
import { readFileSync, renameSync } from 'node:fs';
import type { ValidRuleset } from '../../core/ruleset/validate.ts';
import { FileStateStore } from '../node/file-store.ts';
import { GamePlayer, type GamePlayerOptions } from '../sdk/game-player.ts';
import { StaleSnapshotError } from '../sdk/snapshot.ts';
import { PlayerVault, type VaultSigner } from '../sdk/vault.ts';

export interface StateFileOptions {
  file: string;
  signer: VaultSigner;
  chainId: bigint;
  contract: string;
  gameId: bigint;
}

/** The seat's vault in `file` (the wallet signs the key message; a local key does so silently). */
export function openStateFile(o: StateFileOptions): Promise<PlayerVault> {
  return PlayerVault.open({ ...o, store: FileStateStore.file(o.file) });
}

/** `--export-state`: the sealed state, checked to open, written 0600 to `to`. */
export async function exportState(vault: PlayerVault, from: string, to: string): Promise<void> {
  const blob = await vault.exportBlob();
  if (blob === null) throw new Error(`no saved state of game ${vault.gameId} in ${from}`);
  await FileStateStore.file(to).put(vault.id, new TextEncoder().encode(blob));
}

/** `--restore-state`: `from` opened, decoded and checked, then kept as the seat's state. */
export async function restoreState(vault: PlayerVault, from: string, ruleset: ValidRuleset): Promise<void> {
  await vault.restoreBlob(readFileSync(from, 'utf8'), ruleset);
}

/**
 * Joins with `vault` as the state: resumes from it when it holds a snapshot. A snapshot of an earlier game with the
 * same ids (a restarted dev chain) is moved aside to `<file>.stale-<ms>` (never deleted) and the seat starts fresh.
 */
export async function joinWithState(
  o: GamePlayerOptions & { persist: PlayerVault },
  file: string,
  print: (line: string) => void,
): Promise<GamePlayer> {
  try {
    return await GamePlayer.join(o);
  } catch (e) {
    if (!(e instanceof StaleSnapshotError)) throw e;
    const aside = `${file}.stale-${Date.now()}`;
    renameSync(file, aside);
    print(`${e.message}; kept as ${aside}, starting afresh`);
    return GamePlayer.join(o);
  }
}
