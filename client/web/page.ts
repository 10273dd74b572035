/**
 * The play page's controller: one state object (`PlayState`), the steps of a game (connect a wallet, pick a
 * lobby, fund the game's session key with the wallet's one approval, take the seat, prove and play), and the
 * loop that asks `BotPlayer.act()` — the protocol work every client shares — for the next thing to do, with
 * this page's person as its planner. Errors are messages in the page: a dropped connection is retried with
 * backoff, anything else waits for the player's Retry; the SDK applies a turn only once it is on-chain, so a
 * retry starts that step over and nothing is ever half applied.
 */

import { loadHasher } from '@shroud/core/poseidon.ts';
import { rulesetHash } from '@shroud/core/ruleset/hash.ts';
import { shippedRuleset, shippedRulesetNames } from '@shroud/core/ruleset/shipped.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import type { Slots } from '@shroud/core/state.ts';
import {
  ArtifactStore,
  DealerClient,
  type DealerClientOptions,
  GameChain,
  type GameEvent,
  GamePlayer,
  LobbyClient,
  type LobbyInfo,
  type RevealOpening,
  TileRejectedError,
} from '@shroud/sdk';
import { Wallet } from 'ethers';
import { BotPlayer } from '../bot-player.ts';
import { resolveGameId } from '../play/game-id.ts';
import { describeAction } from '../play/loop.ts';
import { knowledgeOf } from '../viewer/recorder.ts';
import { IndexedDbArtifactCache } from './artifact-cache.ts';
import type { PageConfig } from './config.ts';
import { describeError } from './errors.ts';
import { type MapUnit, mapHit, mapSvg } from './map-view.ts';
import { WebPlanner } from './planner.ts';
import {
  fundSession,
  LocalStorageVault,
  MemoryVault,
  type SessionRecord,
  type SessionVault,
  sessionBudget,
  sweepSession,
} from './session.ts';
import { appendLog, nextClick, sleep, type Ui } from './ui.ts';
import { type ConnectedWallet, connectWallet, LOCAL_CHAIN_ID } from './wallet.ts';
import { type ProofProgress, WorkerProver } from './worker-prover.ts';

/** Phases in which a seat may still have something to do (client/play/loop.ts's list). */
const LIVE = new Set(['Commit', 'Reveal', 'Deal', 'Play', 'Combat', 'Dispute', 'ForceOpen', 'OpenRoot']);

/** One own spawn or turn as the page applied it: what a reload, or a test's replay, needs. */
export interface OwnTurn {
  kind: 'spawn' | 'turn';
  turn: number;
  units: Slots;
  unserved: boolean;
}

/** Everything the page knows, in one object: what a saved-and-restored session will hold. */
export interface PlayState {
  config: PageConfig;
  wallet: ConnectedWallet | null;
  session: { record: SessionRecord; key: Wallet } | null;
  lobby: LobbyInfo | null;
  gameId: bigint | null;
  ruleset: ValidRuleset | null;
  player: GamePlayer | null;
  prover: WorkerProver | null;
  phase: string;
  history: OwnTurn[];
  /** Tile batches refused by the page's verification (a lying dealer), by turn. */
  rejected: { turn: number; message: string }[];
  /** Wei sent back to the wallet when the game ended. */
  swept: bigint | null;
}

/**
 * A DealerClient that tells the page why a turn's tiles were not taken (GamePlayer only marks the turn unserved
 * and asks again later): a batch that failed verification, or a dealer that refused or did not answer.
 */
class WatchedDealer extends DealerClient {
  readonly #onFailed: (turn: number, e: unknown) => void;
  constructor(o: DealerClientOptions, onFailed: (turn: number, e: unknown) => void) {
    super(o);
    this.#onFailed = onFailed;
  }
  override async fetchVerifiedTiles(...a: Parameters<DealerClient['fetchVerifiedTiles']>) {
    try {
      return await super.fetchVerifiedTiles(...a);
    } catch (e) {
      this.#onFailed((a[3] as RevealOpening).turn, e);
      throw e;
    }
  }
}

export class PlayPage {
  readonly state: PlayState;
  readonly ui: Ui;
  readonly planner: WebPlanner;
  readonly #vault: () => SessionVault;
  #logBlock = 0;
  #progress: ProofProgress | null = null;

  constructor(ui: Ui, config: PageConfig) {
    this.ui = ui;
    this.state = {
      config,
      wallet: null,
      session: null,
      lobby: null,
      gameId: null,
      ruleset: null,
      player: null,
      prover: null,
      phase: 'setup',
      history: [],
      rejected: [],
      swept: null,
    };
    this.planner = new WebPlanner('web', () => this.render());
    // The encrypted player-state vault replaces this: plain localStorage is only for the local chain.
    const memory = new MemoryVault();
    this.#vault = () =>
      this.state.wallet?.chainId === LOCAL_CHAIN_ID ? new LocalStorageVault(localStorage) : memory;
    ui.dealerUrl.textContent = config.dealerUrl;
    ui.rpcUrl.textContent = config.rpcUrl ?? '(the browser wallet)';
    ui.dismiss.addEventListener('click', () => this.clearError());
    ui.map.addEventListener('click', (ev) => {
      const hit = mapHit(ev.target);
      if (hit?.kind === 'unit') this.planner.clickUnit(hit.slot);
      else if (hit?.kind === 'tile') this.planner.clickTile(hit.at);
    });
    ui.spawn.addEventListener('click', () => this.planner.end());
    ui.endTurn.addEventListener('click', () => this.planner.end());
    ui.pass.addEventListener('click', () => this.planner.end(true));
    ui.attackMode.addEventListener('click', () =>
      this.planner.setMode(
        this.planner.state.kind === 'turn' && this.planner.state.mode === 'attack' ? 'move' : 'attack',
      ),
    );
  }

  status(s: string): void {
    this.ui.status.textContent = s;
  }

  log(line: string, kind = 'info'): void {
    appendLog(this.ui, line, kind);
  }

  showError(message: string, retry: boolean): void {
    this.ui.errorText.textContent = message;
    this.ui.error.hidden = false;
    this.ui.retry.hidden = !retry;
  }

  clearError(): void {
    this.ui.error.hidden = true;
    this.ui.errorText.textContent = '';
  }

  /**
   * Runs `step` until it succeeds: a transient failure is retried after a backoff (the banner says so), any
   * other waits for the Retry button. The step must be safe to run again from its start.
   */
  async #retrying<T>(what: string, step: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const v = await step();
        if (attempt > 0) this.clearError();
        return v;
      } catch (e) {
        const err = describeError(e);
        console.warn(`${what}:`, e);
        this.showError(`${what}: ${err.message}`, !err.transient);
        if (err.transient) await sleep(Math.min(8000, 500 * 2 ** Math.min(attempt, 4)));
        else await nextClick(this.ui.retry);
      }
    }
  }

  /** Connect, list the lobbies, and play the one the player joins. */
  async start(): Promise<void> {
    this.status('connect a wallet to play');
    await nextClick(this.ui.connect);
    const c = this.state.config;
    this.state.wallet = await this.#retrying('Connecting the wallet', () =>
      connectWallet({
        rpcUrl: c.rpcUrl,
        allowLocalKey: c.allowLocalKey,
        storage: localStorage,
        injected: (globalThis as { ethereum?: never }).ethereum ?? null,
      }),
    );
    const w = this.state.wallet;
    this.ui.connect.hidden = true;
    this.ui.wallet.hidden = false;
    this.ui.wallet.textContent = `${w.kind === 'injected' ? 'Wallet' : 'Local key (this browser)'} ${w.address} on chain ${w.chainId}`;
    this.ui.wallet.dataset.address = w.address;
    const lobby = await this.#retrying('Listing the lobbies', () => this.#pickLobby());
    this.state.lobby = lobby;
    await this.#retrying('Joining the game', () => this.#join(lobby));
    await this.#play();
  }

  /** The dealer's open lobbies as buttons; resolves with the one clicked. */
  async #pickLobby(): Promise<LobbyInfo> {
    const w = this.state.wallet!;
    const client = new LobbyClient(this.state.config.dealerUrl, {
      chainId: w.chainId,
      ...(this.state.config.contract ? { gameContract: this.state.config.contract } : {}),
    });
    const lobbies = await client.lobbies();
    this.ui.lobbies.hidden = false;
    this.ui.lobbies.replaceChildren();
    if (lobbies.length === 0) throw new Error('this dealer has no open lobby');
    this.status('pick a game');
    return new Promise((resolve) => {
      for (const l of lobbies) {
        const row = document.createElement('div');
        row.className = 'lobby';
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.testid = `join-${l.kind}`;
        b.textContent = `Join ${l.kind}`;
        b.addEventListener('click', () => resolve(l), { once: true });
        row.append(
          b,
          ` ${l.ruleset}, ${l.filled}/${l.seats} seated, stake ${l.stake} wei, ${l.maxTurns} turns, contract ${l.gameContract}`,
        );
        this.ui.lobbies.append(row);
      }
    });
  }

  /** The session key (funded once by the wallet), the seat in `lobby`, and the game's player. */
  async #join(lobby: LobbyInfo): Promise<void> {
    const w = this.state.wallet!;
    this.ui.lobbies.querySelectorAll('button').forEach((b) => {
      b.disabled = true;
    });
    if (!this.state.session) {
      const key = new Wallet(Wallet.createRandom().privateKey, w.provider);
      const amount = await sessionBudget(w.provider, lobby.stake, lobby.maxTurns);
      const record: SessionRecord = {
        version: 1,
        key: key.privateKey,
        owner: w.address,
        chainId: w.chainId.toString(),
        gameContract: lobby.gameContract,
        lobbyId: lobby.id,
        gameId: null,
        funded: '0',
      };
      // Saved before any funds move to it: a key the page could lose must never hold them.
      await this.#vault().save(record);
      this.status('approve the one funding transfer for this game in your wallet');
      await fundSession(w.signer, key.address, amount);
      record.funded = amount.toString();
      await this.#vault().save(record);
      this.state.session = { record, key };
      this.log(
        `session key ${key.address} funded with ${amount} wei (stake + gas): the wallet's only approval`,
      );
    }
    const { key, record } = this.state.session;
    const chain = new GameChain(lobby.gameContract, key);
    if (this.state.gameId === null) {
      this.status(`joined lobby ${lobby.kind}: waiting for the other players…`);
      this.state.gameId = await resolveGameId(
        { kind: 'lobby', lobby: lobby.id, maxStake: lobby.stake },
        {
          signer: key,
          dealerUrl: this.state.config.dealerUrl,
          chainId: w.chainId,
          gameContract: lobby.gameContract,
          chain,
          pollMs: this.state.config.pollMs,
          print: (l) => this.log(l),
        },
      );
      record.gameId = this.state.gameId.toString();
      await this.#vault().save(record);
    }
    const gameId = this.state.gameId;
    const cfg = await chain.config(gameId);
    const name = shippedRulesetNames.find(
      (n) => rulesetHash(shippedRuleset(n)).toLowerCase() === cfg.rulesetHash,
    );
    if (!name)
      throw new Error(`game ${gameId} plays ruleset ${cfg.rulesetHash}, which this page does not ship`);
    this.state.ruleset = shippedRuleset(name);
    this.state.prover ??= new WorkerProver({
      store: new ArtifactStore({
        baseUrls: `${this.state.config.dealerUrl}/v1/artifacts`,
        cache: new IndexedDbArtifactCache(),
        onEvent: (e) => {
          if (e.type === 'download')
            this.log(
              `${e.circuit} ${e.kind}: ${(e.bytes / 1e6).toFixed(1)} MB downloaded, SHA-256 matches the chain`,
            );
        },
      }),
      chain,
      game: gameId,
      workerUrl: new URL('worker.js', document.baseURI),
      onProgress: (p) => this.#showProgress(p),
    });
    this.status('downloading and checking the proving keys…');
    await this.state.prover.prefetch();
    const dealer = new WatchedDealer(
      {
        baseUrl: this.state.config.dealerUrl,
        chainId: w.chainId,
        gameContract: lobby.gameContract,
        signer: key,
      },
      (turn, e) => this.#unserved(turn, e),
    );
    this.#logBlock = Math.max(0, (await w.provider.getBlockNumber()) - 1);
    this.state.player = await GamePlayer.join({
      chain,
      dealer,
      prover: this.state.prover,
      h: await loadHasher(),
      ruleset: this.state.ruleset,
      gameId,
      terms: { maxStake: lobby.stake },
    });
    this.ui.setup.hidden = true;
    this.ui.game.hidden = false;
    const p = this.state.player;
    this.ui.gameInfo.textContent = `game ${gameId} (${name}) — seat ${p.seat} of ${p.players.length} — ${key.address}`;
    this.ui.game.dataset.seat = String(p.seat);
    this.ui.game.dataset.address = key.address;
    this.log(`seat ${p.seat} in game ${gameId} (${name})`);
  }

  #unserved(turn: number, e: unknown): void {
    const message = describeError(e).message;
    console.warn(`turn ${turn} unserved:`, e);
    if (e instanceof TileRejectedError) {
      this.state.rejected.push({ turn, message });
      this.log(`turn ${turn}: tiles rejected — ${e.message}`, 'rejected');
    } else this.log(`turn ${turn}: tiles not served — ${message}`, 'unserved');
    this.showError(`Turn ${turn}: ${message} The page will ask the dealer again.`, false);
  }

  /** Until the game leaves play: one action at a time, the combat prompt, the log; then the funds go home. */
  async #play(): Promise<void> {
    const p = this.state.player!;
    const seat = new BotPlayer(p, p.address, this.planner);
    // BotPlayer answers a combat as soon as it sees one; the person answers it here, right before the proof (a
    // prompt shown from this loop instead could miss a combat declared between its read and act()).
    const respond = p.respondCombat.bind(p);
    p.respondCombat = async () => {
      const c = await p.chain.combat(p.gameId);
      this.ui.combat.hidden = false;
      this.ui.combatText.textContent = `Seat ${c.attacker} attacks (${c.col},${c.row}). Answer with a proof of what stands there.`;
      this.status('you are attacked: answer the combat');
      await nextClick(this.ui.answerCombat);
      this.ui.combat.hidden = true;
      return respond();
    };
    let watching = false;
    for (;;) {
      const g = await this.#retrying('Reading the game', () => p.chain.game(p.gameId));
      this.state.phase = g.phase;
      if (!LIVE.has(g.phase)) break;
      if (p.model && !watching) {
        watching = true;
        p.model.events.on('tilesRevealed', (e) => {
          if (e.turn < (p.model?.turn ?? 0) || this.state.rejected.some((r) => r.turn === e.turn)) {
            this.log(`turn ${e.turn}: ${e.tiles.length} tiles served again and verified`, 'late');
            this.clearError();
          }
        });
      }
      const a = await this.#retrying('Playing', () => seat.act());
      await this.#retrying('Reading the events', () => this.#logEvents());
      if (a) {
        this.log(describeAction(a), a.kind);
        if (a.kind === 'spawn' || a.kind === 'turn') {
          this.state.history.push({
            kind: a.kind,
            turn: a.report.turn,
            units: p.units,
            unserved: a.report.unserved,
          });
          if (a.report.unserved && !this.state.rejected.some((r) => r.turn === a.report.turn))
            this.showError(`Turn ${a.report.turn}: the dealer did not serve its tiles; asking again.`, false);
        }
        this.render();
        continue;
      }
      this.status(
        g.phase === 'Play' ? `waiting for seat ${g.toMove} (turn ${g.turn})` : `waiting: ${g.phase}`,
      );
      this.render();
      await sleep(this.state.config.pollMs);
    }
    this.status(`game over: ${this.state.phase}`);
    this.log(`game over (phase ${this.state.phase}); ${p.served.length} tiles served and verified`, 'end');
    this.render();
    const s = this.state.session!;
    this.state.swept = await this.#retrying('Returning the funds', () =>
      sweepSession(s.key, s.record.owner, s.record.gameContract),
    );
    this.log(
      `returned ${this.state.swept} wei to ${s.record.owner}; the stake's credit is withdrawn by the same key once the game settles`,
      'end',
    );
    this.ui.game.dataset.over = 'true';
  }

  /** New game events since the last look, as log lines (the opponents' reveals and every combat). */
  async #logEvents(): Promise<void> {
    const p = this.state.player!;
    const head = await p.chain.provider.getBlockNumber();
    if (head <= this.#logBlock) return;
    const events = await p.chain.events(p.gameId, this.#logBlock + 1, head);
    this.#logBlock = head;
    for (const e of events) {
      const line = this.#describeEvent(e);
      if (line) this.log(line[0], line[1]);
    }
  }

  #describeEvent(e: GameEvent): [string, string] | null {
    const p = this.state.player!;
    const r = this.state.ruleset!;
    const who = (a: string) =>
      a.toLowerCase() === p.address.toLowerCase() ? 'you' : `seat ${p.players.indexOf(a)}`;
    const unit = (t: number) => r.unitTypes[t]?.name ?? `type ${t}`;
    switch (e.kind) {
      case 'ZoneReveal':
        return e.player.toLowerCase() === p.address.toLowerCase()
          ? null
          : [`enemy ${unit(e.unitType)} revealed in zone ${e.zone} (${who(e.player)})`, 'reveal'];
      case 'AttackDeclared':
        return [
          `${who(e.attacker)} attack${who(e.attacker) === 'you' ? '' : 's'} (${e.col},${e.row})`,
          'attack',
        ];
      case 'CombatResolved':
        return [
          `combat at (${e.col},${e.row}): ${unit(e.unitType)} of ${who(e.defender)} hit (hp ${e.hpBefore})${e.killed ? ', killed' : ''}`,
          'combat',
        ];
      case 'CombatFizzled':
        return [`combat at (${e.col},${e.row}): nothing of ${who(e.defender)} there (fizzled)`, 'combat'];
      case 'GameEnded':
        return [`the game ended after turn ${e.turn}`, 'end'];
      default:
        return null;
    }
  }

  #showProgress(p: ProofProgress | null): void {
    this.#progress = p;
    const ui = this.ui;
    ui.progress.hidden = p === null;
    if (!p) return;
    ui.progressBar.value = p.fraction;
    ui.progressText.textContent = `proving ${p.circuit}: ${p.label} (${(p.elapsedMs / 1000).toFixed(1)} s)`;
    this.status(`proving ${p.circuit} in the browser…`);
  }

  /** Redraws the map, the unit list and the buttons from the state and the planner. */
  render(): void {
    const p = this.state.player;
    const r = this.state.ruleset;
    const ui = this.ui;
    if (!p || !r) return;
    const s = this.planner.state;
    const board = r.board;
    const n = board.width * board.height;
    const frame = p.model ? { ...knowledgeOf(p.model), turn: p.model.turn ?? 0 } : null;
    let units: MapUnit[];
    const name = (type: number) => r.unitTypes[type]!.name;
    if (s.kind === 'spawn')
      units = s.positions.map((c, slot) => {
        const type = r.unitTypes.findIndex((t) => t.name === r.spawn[slot]);
        return { slot, ...c, name: r.spawn[slot]!, hp: r.unitTypes[type]!.hp };
      });
    else
      units = p.units.flatMap((u, slot) =>
        u ? [{ slot, col: u.col, row: u.row, name: name(u.type), hp: u.hp }] : [],
      );
    const targets = this.planner.targets().map((t) => t.at);
    ui.map.innerHTML = mapSvg({
      board,
      view: frame?.view ?? new Array(n).fill('undiscovered'),
      tiles: frame?.tiles ?? new Array(n).fill(null),
      markedZones: frame?.sightedZones ?? [],
      units,
      moves: s.kind === 'turn' ? s.moves : [],
      selected: s.kind === 'idle' ? null : s.selected,
      reach: this.planner.reachable(),
      targets,
      area: s.kind === 'spawn' ? s.ctx.area : null,
      size: Math.max(10, Math.min(28, Math.floor(720 / (board.width * 1.8)))),
    });
    const svg = ui.map.querySelector('svg');
    if (svg) svg.dataset.width = String(board.width);
    if (svg && frame) {
      // The fog and the drawn terrain, row-major, for anyone checking the page against the SDK.
      svg.dataset.fog = frame.view.map((v) => (v === 'undiscovered' ? 0 : v === 'visible' ? 1 : 2)).join('');
      svg.dataset.turn = String(frame.turn);
    }
    ui.spawn.hidden = s.kind !== 'spawn';
    ui.endTurn.hidden = s.kind !== 'turn';
    ui.pass.hidden = s.kind !== 'turn';
    ui.endTurn.dataset.turn = s.kind === 'turn' ? String(s.ctx.turn) : '';
    ui.attackMode.hidden = !this.planner.canAttack();
    ui.attackMode.classList.toggle('active', s.kind === 'turn' && s.mode === 'attack');
    if (s.kind === 'spawn')
      this.status('place your units in your start area (click a unit, then a tile), then Spawn');
    else if (s.kind === 'turn')
      this.status(
        s.mode === 'attack'
          ? `turn ${s.ctx.turn}: click a red tile to attack it`
          : `turn ${s.ctx.turn}: select a unit, click a green tile to move it; End turn proves and plays`,
      );
    ui.units.replaceChildren(
      ...units.map((u) => {
        const li = document.createElement('li');
        const to = s.kind === 'turn' ? s.moves[u.slot] : null;
        li.textContent = `${u.slot}: ${u.name} hp ${u.hp} at (${u.col},${u.row})${to ? ` → (${to.col},${to.row})` : ''}`;
        li.dataset.testid = `unit-row-${u.slot}`;
        return li;
      }),
    );
    if (this.#progress) this.#showProgress(this.#progress);
  }

  /** JSON-safe view of the state, for tests and for the save hook. */
  snapshot() {
    const p = this.state.player;
    const obs = p?.model?.observe() ?? null;
    return {
      phase: this.state.phase,
      gameId: this.state.gameId?.toString() ?? null,
      address: p?.address ?? null,
      seat: p?.seat ?? null,
      owner: this.state.wallet?.address ?? null,
      fog: obs?.fog ?? null,
      terrain: obs?.terrain ?? null,
      history: this.state.history.map((h) => ({ ...h, units: h.units })),
      served: p?.served.map((t) => t.leaf) ?? [],
      proofs: this.state.prover?.proofs.map((x) => ({ ...x })) ?? [],
      rejected: [...this.state.rejected],
      swept: this.state.swept?.toString() ?? null,
    };
  }
}
