/**
 * The dealer as an operator runs it: `node dealer/main.ts [command …]` as a child process configured by
 * SHROUD_* variables only (none inherited from the test's own environment), on a file-backed FakeChain.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Wallet } from 'ethers';
import { type VerifiedTile, verifyRevealedTiles } from '../../client/sdk/tiles.ts';
import type { Hasher } from '../../core/index.ts';
import { shippedRuleset } from '../../core/index.ts';
import type { FakeChain } from '../../dealer/chain/fake.ts';
import { signedReveal } from './fixture.ts';

export const MAIN = new URL('../../dealer/main.ts', import.meta.url).pathname;
/** A public test chain's id: the dealer applies its production policy (no demo keys, no demo contract). */
export const PROD_CHAIN_ID = 11155111n;
export const PROD_CONTRACT = '0x1000000000000000000000000000000000000001';

/** The test process's environment without any SHROUD_* variable, so only what a test passes configures it. */
export function cleanEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('SHROUD_') && k !== 'NODE_ENV') env[k] = v;
  return { ...env, ...vars };
}

/** `NAME=value` lines of an env file (comments and blanks skipped). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node dealer/main.ts …args` to completion. */
export function runDealerCli(
  args: string[],
  vars: Record<string, string>,
  o: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd: o.cwd,
      env: o.env ?? cleanEnv(vars),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface RunningDealer {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  /** `http://127.0.0.1:port`, once listening. */
  url: string;
  /** SIGTERM, and the exit code (0: a graceful shutdown). */
  stop(): Promise<number | null>;
}

/** Starts the service (no subcommand) and resolves once it logs `dealer listening`. */
export async function startDealerProcess(vars: Record<string, string>, cwd?: string): Promise<RunningDealer> {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: cleanEnv(vars),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dealer never listened:\n${stderr}`)), 30_000);
    void exited.then((code) => reject(new Error(`dealer exited ${code} before listening:\n${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let l: Record<string, unknown>;
      try {
        l = JSON.parse(text);
      } catch {
        return;
      }
      lines.push(l);
      if (l.msg === 'dealer listening') {
        clearTimeout(timer);
        resolve(String(l.address));
      }
    });
  });
  return {
    child,
    lines,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Polls `f` until it returns non-null. */
export async function until<T>(f: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A signed reveal of (game, turn, leaves) against the dealer at `url`, its tiles verified against the root
 * the chain holds (never the response's own): what a player's client accepts. Returns status and tiles.
 */
export async function revealVerified(
  h: Hasher,
  chain: FakeChain,
  url: string,
  player: Wallet,
  o: { gameId: bigint; turn: number; leaves: number[]; blinding: bigint; ruleset?: string },
): Promise<{ status: number; body: unknown; tiles: VerifiedTile[] | null }> {
  const body = await signedReveal(player, { ...o, chainId: PROD_CHAIN_ID, contract: PROD_CONTRACT });
  const res = await fetch(`${url}/v1/games/${o.gameId}/reveals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const j = (await res.json()) as { tiles?: unknown };
  if (res.status !== 200) return { status: res.status, body: j, tiles: null };
  const root = (await chain.mapRoot(o.gameId))!.root;
  const board = shippedRuleset(o.ruleset ?? 'duel').board;
  return { status: 200, body: j, tiles: verifyRevealedTiles(h, board, root, o.leaves, j.tiles) };
}

/** The SHROUD_* variables of a production-like dealer on a FakeChain file (map proofs off: no prover pool). */
export function prodVars(o: {
  chainFile: string;
  keys: { dealerKey: string; txKey: string; masterKey: string };
  db: { path: string } | { url: string };
}): Record<string, string> {
  return {
    SHROUD_CHAIN_KIND: 'fake-file',
    SHROUD_FAKE_CHAIN_FILE: o.chainFile,
    SHROUD_CHAIN_ID: PROD_CHAIN_ID.toString(),
    SHROUD_GAME_CONTRACT: PROD_CONTRACT,
    SHROUD_POLL_MS: '20',
    SHROUD_DEALER_PORT: '0',
    SHROUD_MAP_PROOF_ENABLED: 'false',
    SHROUD_DEALER_KEY: o.keys.dealerKey,
    SHROUD_TX_KEY: o.keys.txKey,
    SHROUD_MASTER_KEY: o.keys.masterKey,
    ...('path' in o.db
      ? { SHROUD_DB: o.db.path }
      : { SHROUD_DB_DRIVER: 'postgres', SHROUD_DB_URL: o.db.url }),
  };
}
