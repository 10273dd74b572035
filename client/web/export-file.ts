/**
 * "Export state" and "Restore state": one text file holding the two sealed blobs a game needs on another device —
 * the session record (sealed under the wallet's key: it holds the session key) and the player state (sealed under
 * the session key's: `PlayerVault.exportBlob`). Neither opens without the wallet that made it.
 */

const TYPE = 'shroud-web-game';

export interface GameExport {
  session: string;
  /** Null before the seat's state was first saved (e.g. still in the lobby). */
  state: string | null;
}

export class ExportFileError extends Error {
  override name = 'ExportFileError';
}

export function exportText(e: GameExport): string {
  return `${JSON.stringify({ shroud: TYPE, v: 1, session: e.session, state: e.state }, null, 1)}\n`;
}

export function parseExport(text: string): GameExport {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text);
  } catch {
    throw new ExportFileError('this file is not a Shroud game export (not JSON)');
  }
  if (typeof o !== 'object' || o === null || o.shroud !== TYPE)
    throw new ExportFileError('this file is not a Shroud game export');
  if (o.v !== 1) throw new ExportFileError(`export version ${String(o.v)} is not 1`);
  if (typeof o.session !== 'string' || (o.state !== null && typeof o.state !== 'string'))
    throw new ExportFileError('this export is damaged (session and state must be text)');
  return { session: o.session, state: o.state };
}

/** Offers `text` as a download named `name`. */
export function download(name: string, text: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}
