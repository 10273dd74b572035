/**
 * One seat's automaton driving a `GamePlayer`. `act()` looks at the chain and does the one thing this seat
 * must do now (commit, seal, spawn, attack, answer a combat, play a turn; dispute an unserved turn and follow
 * the dispute; reveal its share and settle the open root after a force-open; past a deadline another seat or
 * the dealer missed, the call that moves the game on: core/deadlines.ts), or nothing. The decisions of a
 * player (where to spawn, what to do on its turn) come from a `TurnPlanner`: the exploring bot by default, or
 * a human at a terminal. The demo runs two of them in one process; the CLI player runs one against a live game.
 */
import type { Coord } from '../core/geometry.ts';
import { type IntelEvent, intelFromEvents } from './intel.ts';
import { BotPlanner, type TurnPlanner } from './planner.ts';
import type { ExpiredClaim } from './sdk/closing.ts';
import { MapProofError } from './sdk/errors.ts';
import type {
  AttackReport,
  CombatReport,
  FollowUp,
  GamePlayer,
  MapProofCheck,
  TurnReport,
} from './sdk/game-player.ts';
import { ReplayRecorder } from './viewer/recorder.ts';

export type BotAction =
  | { kind: 'commit' | 'seal' | 'dispute' | 'share'; seat: number; gas: bigint }
  | { kind: 'follow'; seat: number; what: NonNullable<FollowUp> }
  | { kind: 'spawn' | 'turn'; report: TurnReport }
  | { kind: 'attack'; report: AttackReport; odds?: { p: number; uniform: number } }
  | { kind: 'combat'; report: CombatReport }
  | { kind: 'map-proof'; seat: number; check: MapProofCheck }
  | { kind: 'map-proof-refused'; seat: number; error: MapProofError }
  | { kind: 'expired'; seat: number; claim: ExpiredClaim };

/** How often a seat asks the chain whether the map proof was posted (one view call). */
export const MAP_PROOF_POLL_MS = 1000;

export class BotPlayer {
  readonly player: GamePlayer;
  readonly seed: string;
  readonly planner: TurnPlanner;
  /** The player's view after each of its own turns, with its moves, sightings and attacks (for the viewer). */
  readonly replay = new ReplayRecorder();
  /** What the chain told this seat about its enemies, oldest first (the planner's memory of reveals and fizzles). */
  readonly intel: IntelEvent[] = [];
  #mapProofPolled = 0;
  /** The map-proof check under way (it runs beside the seat's duties, never before them), and its news. */
  #mapProofCheck: Promise<void> | null = null;
  #mapProofNews: BotAction | null = null;
  /**
   * Why the map proof was refused, once it was: the dealer's map is not shown to be Gen(seed). The seat plays on
   * (stopping would forfeit its stake at fault) and the audit after the secrets judges the map tile by tile.
   */
  mapProofRefused: MapProofError | null = null;

  /** `seed` seeds the exploring bot, which plans unless another `planner` is given. */
  constructor(player: GamePlayer, seed: string, planner?: TurnPlanner) {
    this.player = player;
    this.seed = seed;
    this.planner = planner ?? new BotPlanner(seed, player.seat);
  }

  get seat(): number {
    return this.player.seat;
  }

  /**
   * One look for the map proof. Never throws: a dealer that is down or slow is asked again at the next poll; only
   * a false proof is news beside a verified one.
   */
  async #checkMapProof(): Promise<void> {
    const p = this.player;
    try {
      const check = await p.checkMapProof();
      if (check) this.#mapProofNews = { kind: 'map-proof', seat: p.seat, check };
    } catch (e) {
      if (!(e instanceof MapProofError)) return;
      this.mapProofRefused = e;
      this.#mapProofNews = { kind: 'map-proof-refused', seat: p.seat, error: e };
    }
  }

  /**
   * Does what this seat must do now; null when it is someone else's move. When the player checks the map proof
   * and has not yet, a check runs in the background (one at a time, started at most once per MAP_PROOF_POLL_MS):
   * a dealer slow to serve the proof never holds up a turn or a combat answer. Its outcome is this call's answer
   * once it is in: `map-proof` when verified, `map-proof-refused` (once; `mapProofRefused`) when false, and play
   * goes on either way.
   */
  async act(): Promise<BotAction | null> {
    const p = this.player;
    if (this.#mapProofNews) {
      const news = this.#mapProofNews;
      this.#mapProofNews = null;
      return news;
    }
    const checking = p.checksMapProof && !p.mapProof && !this.mapProofRefused;
    if (checking && !this.#mapProofCheck && Date.now() - this.#mapProofPolled >= MAP_PROOF_POLL_MS) {
      this.#mapProofPolled = Date.now();
      this.#mapProofCheck = this.#checkMapProof().finally(() => {
        this.#mapProofCheck = null;
      });
    }
    const g = await p.chain.game(p.gameId);
    const me = await p.chain.seat(p.gameId, p.seat);
    if (g.phase === 'Commit' && !me.committed) {
      const tx = await p.commitShare();
      return { kind: 'commit', seat: p.seat, gas: tx.gasUsed };
    }
    if (g.phase === 'Reveal' && !me.revealed) {
      const tx = await p.sealShare();
      return { kind: 'seal', seat: p.seat, gas: tx.gasUsed };
    }
    if (g.phase === 'Combat') {
      if (!(await p.mustRespond())) return this.#claimExpired();
      await this.#sync();
      const report = await p.respondCombat();
      this.replay.combatAnswered(report, g.turn);
      return { kind: 'combat', report };
    }
    if (g.phase === 'Dispute' || g.phase === 'OpenRoot') {
      const what = g.phase === 'Dispute' ? await p.followDispute() : await p.followOpenRoot();
      return what ? { kind: 'follow', seat: p.seat, what } : null;
    }
    if (g.phase === 'ForceOpen' && !me.shareRevealed && p.share !== null) {
      return { kind: 'share', seat: p.seat, gas: (await p.revealShareOnChain()).gasUsed };
    }
    // Our part is done (or the dealer's is due): past the deadline, the game moves on instead of waiting.
    if (g.phase !== 'Play') return this.#claimExpired();
    // The dealer did not serve our last turn. A dispute gives that turn's opening away (P6), so ask again while
    // others play, and dispute only when our next turn comes (the last moment: only the latest turn is disputable).
    if (p.unserved && me.disputedTurn !== me.lastTurn + 1 && !g.openMap && !(await p.retryUnserved())) {
      // Meanwhile a silent opponent still forfeits: our next turn would never come.
      if (g.toMove !== p.seat) return this.#claimExpired();
      return { kind: 'dispute', seat: p.seat, gas: (await p.disputeUnserved()).gasUsed };
    }
    if (g.toMove !== p.seat) return this.#claimExpired();
    if (p.root === 0n && !g.openMap) await p.waitForRoot();
    await this.#sync();
    const r = p.ruleset;
    if (!me.spawned) {
      const positions = await this.planner.spawn({
        seat: p.seat,
        ruleset: r,
        area: r.startAreas[p.seat]!,
        positions: (rnd) => p.spawnPositions(rnd),
      });
      const report = await p.spawn(positions);
      this.replay.frame(p.model!);
      return { kind: 'spawn', report };
    }
    const d = await this.planner.turn({
      seat: p.seat,
      ruleset: r,
      turn: g.turn,
      obs: p.model!.observe(),
      // Each attack spends that slot's nullifier for the turn (kept by the player: it survives a reload).
      attacked: p.attackedSlots(g.turn),
      intel: this.intel,
    });
    if (d.kind === 'attack') {
      const report = await p.attack(d.slot, d.target);
      this.replay.attackMade(report);
      return { kind: 'attack', report, ...(d.odds ? { odds: d.odds } : {}) };
    }
    // A combat answer may have killed one of our units since the plan: moves for empty slots are dropped.
    const units = p.units;
    const moves: (Coord | null)[] = d.moves.map((m, i) => (units[i] ? m : null));
    const report = await p.playTurn({ moves, reveal: d.reveal });
    this.replay.frame(p.model!);
    return { kind: 'turn', report };
  }

  /** The deadline exit of the current phase once its deadline passed (another seat or the dealer missed it). */
  async #claimExpired(): Promise<BotAction | null> {
    const claim = await this.player.claimExpired();
    return claim ? { kind: 'expired', seat: this.seat, claim } : null;
  }

  /** Feeds the model (the SDK's sync) and this seat's intel log with the events since the last sync. */
  async #sync(): Promise<void> {
    const p = this.player;
    // The mask the enemy turns of this batch answered: ours, unchanged since our last turn.
    const watched = p.model?.watchedZones() ?? new Set<number>();
    const events = await p.syncEvents();
    this.replay.chainEvents(events, p);
    // Each enemy's own published mask, with the turn it belongs to (matched to that turn's event only).
    const masks = new Map<number, { turn: number; zones: number[] }>();
    for (let s = 0; s < p.players.length; s++) {
      if (
        s === p.seat ||
        !events.some(
          (e) => e.kind === 'TurnSubmitted' && e.player.toLowerCase() === p.players[s]!.toLowerCase(),
        )
      )
        continue;
      const st = await p.chain.seat(p.gameId, s);
      const zones: number[] = [];
      for (let z = 0; z < p.ruleset.board.zoneCount; z++) if ((st.zoneMask >> BigInt(z)) & 1n) zones.push(z);
      masks.set(s, { turn: st.lastTurn, zones });
    }
    this.intel.push(...intelFromEvents(events, { players: p.players, me: p.seat, watched, masks }));
  }
}
