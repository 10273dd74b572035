/**
 * The end of a demo game's life, on the demo's own chain: the audit window (a day) is fast-forwarded
 * (`evm_increaseTime`, which only a local development node takes), then the game closes as it would anywhere:
 * seat 0's player settles it (core/deadlines.ts; the dealer's watcher would too, dealer/closing.ts), each seat
 * withdraws what it is owed, and the dealer's watcher withdraws its bond on its next tick.
 */
import type { JsonRpcProvider } from 'ethers';
import type { BotPlayer } from '../../client/bot-player.ts';

export interface SettleOptions {
  provider: JsonRpcProvider;
  bots: BotPlayer[];
  gameId: bigint;
  /** The dealer's transaction address: its bond is credited at settlement, then withdrawn by its watcher. */
  dealer: string;
  /** How long to wait for the dealer's withdrawal (default 60 s). */
  timeoutMs?: number;
}

/** Settles the game past its audit window and waits for the dealer's withdrawal; returns the summary line. */
export async function settleDemoGame(o: SettleOptions): Promise<string> {
  const chain = o.bots[0]!.player.chain;
  const g = await chain.game(o.gameId);
  if (g.phase !== 'Audit') throw new Error(`settlement: the game is in phase ${g.phase}, not Audit`);
  const bond = g.bond;
  const now = (await o.provider.getBlock('latest'))!.timestamp;
  await o.provider.send('evm_increaseTime', [g.deadline - now + 1]);
  await o.provider.send('evm_mine', []);
  const t0 = Date.now();
  // The dealer's watcher may get there first: the seat's claim then finds nothing to do.
  const claim = await o.bots[0]!.player.claimExpired();
  const until = t0 + (o.timeoutMs ?? 60_000);
  while ((await chain.game(o.gameId)).phase !== 'Settled' || (await chain.credit(o.dealer)) !== 0n) {
    if (Date.now() > until) throw new Error('settlement: the dealer did not withdraw its bond within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const paid: string[] = [];
  for (const b of o.bots) {
    const w = await b.player.withdrawCredit();
    if (w) paid.push(`seat ${b.seat} ${w.wei} wei`);
  }
  const by = claim ? `seat 0 settled it (gas ${claim.gas})` : 'the dealer settled it';
  return `settlement: the audit window fast-forwarded on the local chain; ${by}; the dealer withdrew its ${bond} wei bond ${Date.now() - t0} ms later; seats withdrew ${paid.length ? paid.join(', ') : 'nothing (no stakes)'}`;
}
