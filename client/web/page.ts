/**
 * The play page's controller: one state object (`PlayState`), the steps of a game (connect a wallet; resume its
 * unfinished game, restore an exported one, or pick a lobby; fund the game's session key with the wallet's one
 * approval, take the seat, prove and play), and the loop that asks `BotPlayer.act()` — the protocol work every
 * client shares — for the next thing to do, with this page's person as its planner. Errors are messages in the
 * page: a dropped connection is retried with backoff, anything else waits for the player's Retry; the SDK applies
 * a turn only once it is on-chain, so a retry starts that step over and nothing is ever half applied.
 *
 * What survives a reload: the session key, sealed under the wallet's key (session-store.ts), and the seat's hidden
 * state, sealed under the session key's (the SDK's PlayerVault, saved by GamePlayer after every change), both in
 * IndexedDB. The wallet is asked for one signature per visit (two on a device's first game: the vault checks the
 * wallet signs deterministically) and one transfer per game.
 */

import { isFinalPhase } from '@shroud/core/deadlines.ts';
import type { GamePhaseName } from '@shroud/core/game-phases.ts';
import { loadHasher } from '@shroud/core/poseidon.ts';
import { rulesetHash } from '@shroud/core/ruleset/hash.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import {
  ArtifactStore,
  DealerClient,
  type DealerClientOptions,
  GameChain,
  type GameEvent,
  GamePlayer,
  IndexedDbStateStore,
  LobbyClient,
  PlayerVault,
  type RevealOpening,
  TileRejectedError,
  VaultKey,
} from '@shroud/sdk';
import { Wallet } from 'ethers';
import { BotPlayer } from '../bot-player.ts';
import type { TurnPlanner } from '../planner.ts';
import { describeAction } from '../play/loop.ts';
import { knowledgeOf } from '../viewer/recorder.ts';
import { IndexedDbArtifactCache } from './artifact-cache.ts';
import type { PageConfig } from './config.ts';
import { describeError } from './errors.ts';
import { download, ExportFileError, exportText, openExport } from './export-file.ts';
import { drawnFog, type OwnTurn } from './history.ts';
import { BUILT_IN_MAP_PROOF, type BuiltMapProof, pageMapProof } from './map-proof.ts';
import { type MapUnit, mapHit, mapSvg } from './map-view.ts';
import { WebPlanner } from './planner.ts';
import {
  closeFinished,
  closeStep,
  closingReserve,
  fundSession,
  type LeaveOffer,
  leaveLobby,
  lobbyGame,
  payToWallet,
  sessionBudget,
  shippedRulesetOf,
  sweepSession,
} from './session.ts';
import {
  type SessionEntry,
  type SessionLobby,
  type SessionRecord,
  SessionRecordError,
  SessionStore,
  sessionHeader,
} from './session-store.ts';
import { assertTrustedGame, BUILT_IN_TRUST, isTrustedGame, type TrustedGames } from './trust.ts';
import { aborted, appendLog, nextClick, nextFile, sleep, type Ui } from './ui.ts';
import { type ConnectedWallet, connectWallet } from './wallet.ts';
import { ProofFailedError, type ProofProgress, WorkerProver } from './worker-prover.ts';

/** Phases in which a seat may still have something to do (client/play/loop.ts's list). */
const LIVE = new Set(['Commit', 'Reveal', 'Deal', 'Play', 'Combat', 'Dispute', 'ForceOpen', 'OpenRoot']);

/** How often the page looks at a game after play while waiting for its deadline, ms (#closeGame). */
const CLOSE_LOOK_MS = { min: 5_000, max: 15_000 };

export type { OwnTurn } from './history.ts';

/** The person clicked Leave while the lobby had not given them a game (#join's wait, or its error). */
class LobbyLeft extends Error {
  override name = 'LobbyLeft';
  constructor() {
    super('left the lobby');
  }
}

/** Everything the page knows, in one object: what a saved-and-restored session will hold. */
export interface PlayState {
  config: PageConfig;
  wallet: ConnectedWallet | null;
  session: { record: SessionRecord; key: Wallet } | null;
  lobby: SessionLobby | null;
  gameId: bigint | null;
  ruleset: ValidRuleset | null;
  player: GamePlayer | null;
  /** The seat's sealed state in IndexedDB (under the session key's vault key). */
  vault: PlayerVault | null;
  prover: WorkerProver | null;
  phase: string;
  /** The page's own turns; saved in the session record (a reload keeps them). */
  history: OwnTurn[];
  /** Tile batches refused by the page's verification (a lying dealer), by turn. */
  rejected: { turn: number; message: string }[];
  /** Wei sent back to the wallet since play ended (when it ended, then when the game closed). */
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
  /** Sealed session keys and player states, and the wallet key's fingerprint: this browser's IndexedDB. */
  readonly #idb = new IndexedDbStateStore();
  readonly #sessions = new SessionStore(this.#idb);
  /** The wallet's vault key per game contract: derived once per visit (one signature). */
  readonly #walletKeys = new Map<string, VaultKey>();
  #logBlock = 0;
  #progress: ProofProgress | null = null;
  /** The once-per-visit return of finished games' funds (#settleFinished). */
  #settling: Promise<void> | null = null;
  /** Until the lobby gave this session its game: the Leave button aborts it (#join), when it is offered. */
  #lobbyExit: AbortController | null = null;
  /** What a Leave would do now (session.ts `LeaveOffer`): only `open` is honoured. */
  #leaveOffer: LeaveOffer = 'joining';
  /** What the lobby list says first (#pickLobby): how the last Leave went. */
  #notice: string | null = null;

  /** The game contracts this page acts with on a public chain (trust.ts; compiled in by the build). */
  readonly #trust: TrustedGames;
  /** The map-proof keys and registries this page checks with (map-proof.ts; compiled in by the build). */
  readonly #mapProof: BuiltMapProof;
  /** The game whose map-proof line (checked or not, and why) is in the log already. */
  #mapProofSaid: bigint | null = null;

  constructor(
    ui: Ui,
    config: PageConfig,
    trust: TrustedGames = BUILT_IN_TRUST,
    mapProof: BuiltMapProof = BUILT_IN_MAP_PROOF,
  ) {
    this.ui = ui;
    this.#trust = trust;
    this.#mapProof = mapProof;
    this.state = {
      config,
      wallet: null,
      session: null,
      lobby: null,
      gameId: null,
      ruleset: null,
      player: null,
      vault: null,
      prover: null,
      phase: 'setup',
      history: [],
      rejected: [],
      swept: null,
    };
    this.planner = new WebPlanner('web', () => this.render());
    ui.dealerUrl.textContent = config.dealerUrl;
    ui.rpcUrl.textContent = config.rpcUrl ?? '(the browser wallet)';
    ui.dismiss.addEventListener('click', () => this.clearError());
    // Not while the join's answer is on its way (the seat could be taken, even fill the lobby, after the leave),
    // nor once the lobby filled with this seat: its game is being created (#offerLeave).
    ui.leaveLobby.addEventListener('click', () => {
      if (this.#leaveOffer === 'open') this.#lobbyExit?.abort(new LobbyLeft());
    });
    ui.exportState.addEventListener('click', () => {
      this.#export().catch((e: unknown) => this.showError(`Exporting: ${describeError(e).message}`, false));
    });
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
  async #retrying<T>(what: string, step: () => Promise<T>, exit?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        exit?.throwIfAborted();
        const v = await step();
        if (attempt > 0) this.clearError();
        return v;
      } catch (e) {
        // The person left: no retry, whatever the step was doing.
        if (exit?.aborted) {
          this.clearError();
          throw exit.reason;
        }
        const err = describeError(e);
        console.warn(`${what}:`, e);
        this.showError(`${what}: ${err.message}`, !err.transient);
        this.status(
          `${what.toLowerCase()}: ${err.transient ? 'retrying…' : 'stopped, see the message above'}`,
        );
        const wait = err.transient
          ? sleep(Math.min(8000, 500 * 2 ** Math.min(attempt, 4)))
          : nextClick(this.ui.retry);
        await (exit ? Promise.race([wait, aborted(exit)]) : wait);
      }
    }
  }

  /** Connect; resume this wallet's unfinished game, restore an exported one, or join a lobby; play. */
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
    if (w.rpcIgnored)
      this.log(`reading the chain through the wallet, not ${w.rpcIgnored} (a link's RPC could lie)`);
    const pinned = this.state.config.contract;
    if (pinned) assertTrustedGame(this.#trust, w.chainId, pinned);
    this.ui.connect.hidden = true;
    this.ui.wallet.hidden = false;
    this.ui.wallet.textContent = `${w.kind === 'injected' ? 'Wallet' : 'Local key (this browser)'} ${w.address} on chain ${w.chainId}`;
    this.ui.wallet.dataset.address = w.address;
    const saved = await this.#retrying('Reading the saved games', () => this.#unfinished());
    if (saved) await this.#retrying(`Opening your saved game`, () => this.#reopen(saved));
    else await this.#chooseGame();
    for (;;) {
      // A Leave that a reload interrupted is finished, never joined again.
      if (!this.state.session?.record.leaving) {
        const exit = new AbortController();
        this.#lobbyExit = exit;
        try {
          await this.#retrying('Joining the game', () => this.#join(exit.signal), exit.signal);
          break;
        } catch (e) {
          if (!(e instanceof LobbyLeft)) throw e;
        } finally {
          this.#lobbyExit = null;
          this.#leaveOffer = 'joining';
          this.ui.leaveLobby.hidden = true;
        }
      }
      await this.#retrying('Leaving the lobby', () => this.#leave());
      await this.#chooseGame();
    }
    await this.#play();
  }

  /**
   * Leave, before the lobby gave this session a game: the seat is given up at the dealer and the session key's
   * funds go back to the wallet (session.ts `leaveLobby`); the session is forgotten. Safe to run again.
   */
  async #leave(): Promise<void> {
    const s = this.state.session;
    const w = this.state.wallet!;
    if (s) {
      // Saved first: a reload from here on finishes this leave instead of joining again.
      if (!s.record.leaving) {
        s.record.leaving = true;
        await this.#saveSession();
      }
      this.status('leaving the lobby: returning the funds…');
      const { exit, returned } = await leaveLobby(s.key, s.record, {
        url: this.state.config.dealerUrl,
        chainId: w.chainId,
      });
      await this.#sessions.remove(s.record.owner, s.record.chainId, s.key.address);
      this.#notice =
        exit === 'filled'
          ? `left the lobby after it filled (its game is cancelled when its commit window ends; nothing of yours is staked): ${returned} wei returned to your wallet`
          : `left the lobby: ${returned} wei returned to your wallet`;
      this.log(`${this.#notice} (session key ${s.key.address})`, 'end');
    }
    this.state.session = null;
    this.state.lobby = null;
    this.state.gameId = null;
    this.state.history = [];
  }

  /**
   * The Leave button while the page waits for its lobby: disabled ("joining…") while the join's answer is on its
   * way, offered while the seat waits in an open lobby, gone once the lobby filled with it (session.ts LeaveOffer).
   */
  #offerLeave(o: LeaveOffer): void {
    this.#leaveOffer = o;
    const b = this.ui.leaveLobby;
    b.hidden = o === 'full';
    b.disabled = o !== 'open';
    b.dataset.offer = o;
    b.textContent =
      o === 'joining'
        ? 'Joining… (Leave waits for the dealer’s answer)'
        : 'Leave the lobby (your funds go back)';
    if (o === 'open') this.status(`in lobby ${this.state.lobby?.kind ?? ''}: waiting for the other players…`);
    if (o === 'full') this.status('the lobby is full: the dealer is creating the game…');
  }

  /** The wallet's unfinished session in this browser, if any (no wallet prompt: the index is in clear). */
  async #unfinished(): Promise<SessionEntry | null> {
    const w = this.state.wallet!;
    const pinned = this.state.config.contract?.toLowerCase();
    const all = await this.#sessions.entries(w.address, w.chainId);
    return (
      all.find(
        (e) =>
          !e.over && (!pinned || e.contract === pinned) && isTrustedGame(this.#trust, w.chainId, e.contract),
      ) ?? null
    );
  }

  /** The wallet's vault key for `contract`: one signature per visit (two the first time on this device). */
  async #walletKey(contract: string): Promise<VaultKey> {
    const w = this.state.wallet!;
    // Every game the page joins, resumes or restores passes here first: refuse a contract it does not trust.
    assertTrustedGame(this.#trust, w.chainId, contract);
    const id = contract.toLowerCase();
    let key = this.#walletKeys.get(id);
    if (!key) {
      this.status('sign the message in your wallet that locks and unlocks this game on this device');
      key = await VaultKey.derive(w.signer, { chainId: w.chainId, contract: id }, { known: this.#idb });
      this.#walletKeys.set(id, key);
    }
    return key;
  }

  /** Opens a saved session (its sealed record) and takes up where it was. */
  async #reopen(entry: SessionEntry): Promise<void> {
    this.status(`resuming game ${entry.gameId ?? '(still in the lobby)'}…`);
    const key = await this.#walletKey(entry.contract);
    this.#adoptSession(await this.#sessions.load(key, entry.address));
    this.log(`resuming game ${entry.gameId ?? '(lobby)'} with session key ${entry.address}`, 'resume');
  }

  #adoptSession(record: SessionRecord): void {
    const w = this.state.wallet!;
    this.state.session = { record, key: new Wallet(record.key, w.provider) };
    this.state.lobby = record.lobby;
    this.state.gameId = record.gameId;
    this.state.history = [...record.history];
  }

  /** Saves the session record as it is now (sealed; the wallet key is already derived). */
  async #saveSession(): Promise<void> {
    const s = this.state.session!;
    s.record.history = [...this.state.history];
    await this.#sessions.save(await this.#walletKey(s.record.gameContract), s.record);
  }

  /** A lobby, or an exported game restored from a file; a file that does not restore says why and asks again. */
  async #chooseGame(): Promise<void> {
    for (;;) {
      const choice = await this.#retrying('Listing the lobbies', () => this.#pickLobby());
      if (choice.kind === 'lobby') {
        this.state.lobby = choice.lobby;
        return;
      }
      try {
        await this.#restore(choice.text);
        this.clearError();
        return;
      } catch (e) {
        console.warn('restore:', e);
        this.showError(`Restoring the saved game: ${describeError(e).message}`, false);
      }
    }
  }

  /** The dealer's open lobbies as buttons, and the restore input; resolves with what the player chose. */
  async #pickLobby(): Promise<{ kind: 'lobby'; lobby: SessionLobby } | { kind: 'restore'; text: string }> {
    const w = this.state.wallet!;
    const client = new LobbyClient(this.state.config.dealerUrl, {
      chainId: w.chainId,
      ...(this.state.config.contract ? { gameContract: this.state.config.contract } : {}),
    });
    const lobbies = await client.lobbies();
    this.ui.lobbies.hidden = false;
    this.ui.lobbies.replaceChildren();
    this.ui.restoreBox.hidden = false;
    if (lobbies.length === 0) this.ui.lobbies.textContent = 'This dealer has no open lobby.';
    this.status(`${this.#notice ? `${this.#notice}. ` : ''}pick a game, or restore an exported one`);
    const restored = nextFile(this.ui.restore).then((text) => ({ kind: 'restore' as const, text }));
    const joined = new Promise<{ kind: 'lobby'; lobby: SessionLobby }>((resolve) => {
      for (const l of lobbies) {
        const row = document.createElement('div');
        row.className = 'lobby';
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.testid = `join-${l.kind}`;
        b.textContent = `Join ${l.kind}`;
        const lobby = {
          id: l.id,
          kind: l.kind,
          stake: l.stake,
          maxTurns: l.maxTurns,
          gameContract: l.gameContract,
          disputeDeposit: l.disputeDeposit,
          durations: l.durations,
          // What the game is held to even when no join of this page signs the lobby's view (session.ts lobbyGame).
          pinned: { rulesetHash: l.rulesetHash, seats: l.seats, bond: l.bond, dealer: l.dealer },
        };
        const trusted = isTrustedGame(this.#trust, w.chainId, l.gameContract);
        if (trusted) b.addEventListener('click', () => resolve({ kind: 'lobby', lobby }), { once: true });
        else b.disabled = true;
        row.append(
          b,
          ` ${l.ruleset}, ${l.filled}/${l.seats} seated, stake ${l.stake} wei, ${l.maxTurns} turns, contract ${l.gameContract}`,
          trusted ? '' : ' — not a game contract this page trusts on this chain',
        );
        this.ui.lobbies.append(row);
      }
    });
    const choice = await Promise.race([joined, restored]);
    this.ui.restoreBox.hidden = true;
    this.ui.lobbies.querySelectorAll('button').forEach((b) => {
      b.disabled = true;
    });
    return choice;
  }

  /**
   * An exported game (export-file.ts) onto this device: its session opened with this wallet's key and saved here,
   * its player state checked (it must open under the session key, for this game and seat) and stored.
   */
  async #restore(text: string): Promise<void> {
    const w = this.state.wallet!;
    const file = await openExport(text, this.ui.restorePass.value);
    this.ui.restorePass.value = '';
    if (!file.protected)
      this.log('this export has no passphrase (an older page made it): export it again', 'info');
    const h = sessionHeader(file.session);
    if (h.chainId !== w.chainId)
      throw new SessionRecordError(
        `this export is a game on chain ${h.chainId}; the wallet is on chain ${w.chainId}`,
      );
    if (h.player.toLowerCase() !== w.address.toLowerCase())
      throw new SessionRecordError(`this export belongs to wallet ${h.player}, not ${w.address}`);
    const key = await this.#walletKey(h.contract);
    const record = this.#sessions.open(key, file.session);
    if (file.state !== null) {
      if (record.gameId === null) throw new SessionRecordError('this export has a player state but no game');
      const chain = new GameChain(record.gameContract, w.provider);
      const { ruleset } = await this.#rulesetOf(chain, record.gameId);
      const vault = await this.#playerVault(new Wallet(record.key), record.gameContract, record.gameId);
      await vault.restoreBlob(file.state, ruleset);
    }
    await this.#sessions.save(key, record);
    this.#adoptSession(record);
    this.log(`restored game ${record.gameId ?? '(lobby)'} from the exported file`, 'resume');
  }

  /** "Export state": the sealed session and the sealed player state, as one file. */
  async #export(): Promise<void> {
    const s = this.state.session;
    const w = this.state.wallet;
    if (!s || !w) throw new Error('no game to export yet');
    const session = await this.#sessions.blob(w.address, w.chainId, s.key.address);
    if (!session) throw new Error('the session is not saved yet');
    const pass = this.ui.exportPass.value;
    if (pass !== this.ui.exportPass2.value) throw new ExportFileError('the two passphrases differ');
    const state = (await this.state.vault?.exportBlob()) ?? null;
    const text = await exportText({ session, state }, pass);
    this.ui.exportPass.value = '';
    this.ui.exportPass2.value = '';
    download(`shroud-game-${this.state.gameId ?? 'lobby'}.json`, text);
    this.log('exported the sealed game state (it opens only with this wallet and the passphrase)', 'info');
  }

  async #rulesetOf(chain: GameChain, gameId: bigint): Promise<{ name: string; ruleset: ValidRuleset }> {
    const shipped = await shippedRulesetOf(chain, gameId);
    if (shipped) return shipped;
    const { rulesetHash } = await chain.config(gameId);
    throw new Error(`game ${gameId} plays ruleset ${rulesetHash}, which this page does not ship`);
  }

  /**
   * Finished games of this wallet on `contract` whose session keys are still kept: each one's due deadline exit is
   * sent (session.ts `closeStep`), and a closed one's credit and balance go home and its key is forgotten. Uses the
   * wallet key the current game derived already: no prompt of its own.
   */
  async #settleFinished(contract: string): Promise<void> {
    const w = this.state.wallet!;
    const key = this.#walletKeys.get(contract.toLowerCase());
    if (!key) return;
    for (const e of await this.#sessions.entries(w.address, w.chainId)) {
      if (!e.over || e.contract !== key.scope.contract) continue;
      try {
        const r = await this.#sessions.load(key, e.address);
        const session = new Wallet(r.key, w.provider);
        // Only a game played to its end is marked over, so it has an id.
        if (r.gameId === null) continue;
        const step = await closeFinished(session, { ...r, gameId: r.gameId }, await loadHasher());
        if (step.audited?.kind === 'zone' || step.audited?.kind === 'zone-roots')
          this.log(`game ${r.gameId}: audit: the posted root is not Gen(seed): proven on-chain`, 'end');
        if (step.claimed) this.log(`game ${r.gameId}: deadline passed: ${step.claimed.kind}`, 'end');
        if (step.returned > 0n)
          this.log(`game ${r.gameId}: returned ${step.returned} wei from its session key`, 'end');
        if (step.closed) await this.#sessions.remove(r.owner, r.chainId, e.address);
      } catch (err) {
        // One game's failure (a chain error, a key without gas) leaves the others to close.
        console.warn(`closing the finished game of session key ${e.address}:`, err);
      }
    }
  }

  /** The seat's player-state vault: keyed by the session key's signature (silent, no wallet prompt). */
  #playerVault(session: Wallet, contract: string, gameId: bigint): Promise<PlayerVault> {
    return PlayerVault.open({
      signer: session,
      chainId: this.state.wallet!.chainId,
      contract,
      gameId,
      store: this.#idb,
    });
  }

  /**
   * The session key (sealed and saved before the wallet's one funding transfer), the seat in the lobby, and the
   * game's player (resumed from its sealed state when there is one). Safe to run again from the start.
   */
  async #join(exit?: AbortSignal): Promise<void> {
    const w = this.state.wallet!;
    const lobby = this.state.lobby;
    if (!lobby) throw new Error('this saved game names no lobby');
    if (!this.state.session) {
      const walletKey = await this.#walletKey(lobby.gameContract);
      const key = new Wallet(Wallet.createRandom().privateKey, w.provider);
      const record: SessionRecord = {
        version: 2,
        key: key.privateKey,
        owner: w.address,
        chainId: w.chainId,
        gameContract: lobby.gameContract,
        lobby,
        gameId: null,
        funded: 0n,
        over: false,
        history: [],
      };
      // Sealed and saved before any funds move to it: a key the page could lose must never hold them.
      await this.#sessions.save(walletKey, record);
      this.state.session = { record, key };
    }
    const { key, record } = this.state.session;
    this.#settling ??= this.#settleFinished(lobby.gameContract).catch((e: unknown) =>
      console.warn('returning the funds of finished games:', e),
    );
    if (record.funded === 0n) {
      // A transfer that landed before a reload (or whose answer was lost) is not asked for again.
      const balance = await w.provider.getBalance(key.address);
      if (balance === 0n) {
        const amount = await sessionBudget(w.provider, lobby.stake, lobby.maxTurns, lobby.disputeDeposit);
        this.status('approve the one funding transfer for this game in your wallet');
        await fundSession(w.signer, key.address, amount);
        record.funded = amount;
      } else record.funded = balance;
      await this.#saveSession();
      this.log(
        `session key ${key.address} funded with ${record.funded} wei (stake + gas): the wallet's one transfer for this game`,
      );
    }
    const chain = new GameChain(lobby.gameContract, key);
    // Before the key stakes anything: the stake's credit is the wallet's, not the key's (session.ts payToWallet).
    const paid = await payToWallet(key, record.owner, lobby.gameContract);
    if (paid.named)
      this.log(
        `the game pays ${record.owner}, not the session key: a stake paid back after the game cannot be lost with this browser`,
      );
    if (paid.returned > 0n)
      this.log(`returned ${paid.returned} wei owed to ${record.owner} by earlier games`, 'end');
    if (paid.pushFailed)
      this.log(`the wallet's credit from earlier games stays in the contract: ${paid.pushFailed}`, 'end');
    if (this.state.gameId === null) {
      this.status(`joining lobby ${lobby.kind}…`);
      // Until the game exists nothing is staked: the person may leave, and the funds go back (#leave); but only
      // once the dealer answered the join (#offerLeave).
      this.#offerLeave('joining');
      this.state.gameId = await lobbyGame(key, lobby, {
        dealerUrl: this.state.config.dealerUrl,
        chainId: w.chainId,
        chain,
        pollMs: this.state.config.pollMs,
        print: (l) => this.log(l),
        onOffer: (o) => this.#offerLeave(o),
        ...(exit ? { signal: exit } : {}),
      });
      // A Leave clicked while the last answers came in wins: nothing is staked yet (#leave).
      exit?.throwIfAborted();
      this.ui.leaveLobby.hidden = true;
      record.gameId = this.state.gameId;
      await this.#saveSession();
    }
    const gameId = this.state.gameId;
    const { name, ruleset } = await this.#rulesetOf(chain, gameId);
    this.state.ruleset = ruleset;
    this.state.prover ??= new WorkerProver({
      store: new ArtifactStore({
        baseUrls: `${this.state.config.dealerUrl}/v1/artifacts`,
        cache: new IndexedDbArtifactCache(),
        // Past the browser's HTTP cache: a file that failed its hash must not come back from it on Retry (the
        // checked bytes are kept in IndexedDB anyway).
        fetch: (url, init) => fetch(url, { ...init, cache: 'no-store' }),
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
    this.state.vault ??= await this.#playerVault(key, lobby.gameContract, gameId);
    const prover = this.state.prover;
    // Only with the keys this page was built with, never the dealer's; checked in the worker (map-proof.ts).
    const mapProof = pageMapProof({
      built: this.#mapProof,
      ruleset: name,
      chainId: w.chainId,
      localRegistry: this.state.config.mapProofRegistry,
      verify: (claim, proof, vkeys) => prover.verifyMapProof(claim, proof, vkeys),
      // Read only when there is a key to hold to it (pageMapProof says why not otherwise).
      verifierCode: Object.hasOwn(this.#mapProof.keys, name)
        ? await w.provider.getCode(await chain.verifierOf(rulesetHash(ruleset), 'maproot'))
        : '0x',
    });
    if (this.#mapProofSaid !== gameId) {
      this.#mapProofSaid = gameId;
      this.log(mapProof.line, mapProof.options ? 'info' : 'unchecked');
    }
    this.state.player = await GamePlayer.join({
      chain,
      dealer,
      prover: this.state.prover,
      h: await loadHasher(),
      ruleset,
      gameId,
      terms: { maxStake: lobby.stake },
      persist: this.state.vault,
      ...(mapProof.options ? { mapProof: mapProof.options } : {}),
    });
    this.ui.setup.hidden = true;
    this.ui.game.hidden = false;
    const p = this.state.player;
    this.ui.gameInfo.textContent = `game ${gameId} (${name}) — seat ${p.seat} of ${p.players.length} — ${key.address}`;
    this.ui.game.dataset.seat = String(p.seat);
    this.ui.game.dataset.address = key.address;
    this.ui.game.dataset.resumed = String(p.resumed);
    this.log(
      p.resumed
        ? `seat ${p.seat} in game ${gameId} (${name}): resumed from the saved state`
        : `seat ${p.seat} in game ${gameId} (${name})`,
      p.resumed ? 'resume' : 'info',
    );
  }

  #unserved(turn: number, e: unknown): void {
    const message = describeError(e).message;
    console.warn(`turn ${turn} unserved:`, e);
    if (e instanceof TileRejectedError) {
      this.state.rejected.push({ turn, message });
      this.log(`turn ${turn}: tiles rejected — ${e.message}`, 'rejected');
    } else this.log(`turn ${turn}: tiles not served — ${message}`, 'unserved');
    this.showError(
      `Turn ${turn}: ${message} The turn itself is on-chain; the page asks the dealer again and draws its tiles when they come.`,
      false,
    );
  }

  #recordTurn(kind: OwnTurn['kind'], turn: number, unserved: boolean): void {
    const p = this.state.player!;
    this.state.history.push({ kind, turn, units: p.units, unserved, fog: p.model!.fog().join('') });
  }

  /** Until the game leaves play: one action at a time, the combat prompt, the log; then the funds go home. */
  async #play(): Promise<void> {
    const p = this.state.player!;
    // A reload between a turn landing and the page saving its history: the resumed player has it, the log not.
    const last = this.state.history.at(-1)?.turn ?? -1;
    if (p.model && p.model.turn !== null && p.model.turn > last) {
      this.#recordTurn(this.state.history.length ? 'turn' : 'spawn', p.model.turn, p.unserved !== null);
      await this.#retrying('Saving the game', () => this.#saveSession());
    }
    // A proof that failed to build (the worker threw) is retried with the decision the person already made: Retry
    // proves and sends that same spawn, turn or attack; nothing of it reached the chain. Any other failure, or a
    // success, forgets it (the person decides again).
    let decided: { key: string; value: Promise<unknown> } | null = null;
    const once = <T>(key: string, ask: () => Promise<T>): Promise<T> => {
      if (decided?.key !== key) decided = { key, value: ask() };
      return decided.value as Promise<T>;
    };
    const planner: TurnPlanner = {
      spawn: (ctx) => once(`spawn ${ctx.seat}`, () => this.planner.spawn(ctx)),
      turn: (ctx) => once(`turn ${ctx.turn}`, () => this.planner.turn(ctx)),
    };
    const seat = new BotPlayer(p, p.address, planner);
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
    let unservedAsks = 0;
    for (;;) {
      const g = await this.#retrying('Reading the game', () => p.chain.game(p.gameId));
      this.state.phase = g.phase;
      if (!LIVE.has(g.phase)) break;
      if (p.model && !watching) {
        watching = true;
        p.model.events.on('tilesRevealed', (e) => {
          // Tiles of an earlier turn, of a rejected batch, or of a turn the dealer did not serve (it was down).
          if (
            e.turn < (p.model?.turn ?? 0) ||
            this.state.rejected.some((r) => r.turn === e.turn) ||
            this.state.history.some((h) => h.turn === e.turn && h.unserved)
          ) {
            this.log(`turn ${e.turn}: ${e.tiles.length} tiles served again and verified`, 'late');
            this.clearError();
            // Drawn once the player has marked the turn served (right after this event, synchronously).
            queueMicrotask(() => this.render());
          }
        });
      }
      const a = await this.#retrying('Playing', async () => {
        try {
          const done = await seat.act();
          if (done) decided = null;
          return done;
        } catch (e) {
          if (!(e instanceof ProofFailedError)) decided = null;
          throw e;
        }
      });
      await this.#retrying('Reading the events', () => this.#logEvents());
      if (a) {
        // The log line, the history and the map change together (one task): what the page shows is consistent.
        this.log(describeAction(a), a.kind);
        // Play goes on (leaving would forfeit the stake): the banner says so, with nothing to retry.
        if (a.kind === 'map-proof-refused')
          this.showError(
            `The dealer's map proof was refused (${a.error.message}): the map is NOT proven to be Gen(seed). Play goes on (leaving would forfeit your stake); the audit after the game judges the map from the published secrets.`,
            false,
          );
        if (a.kind === 'spawn' || a.kind === 'turn') {
          this.#recordTurn(a.kind, a.report.turn, a.report.unserved);
          // The dealer's failure is already shown (#unserved says why); this covers a turn unserved without one.
          if (
            a.report.unserved &&
            this.ui.error.hidden &&
            !this.state.rejected.some((r) => r.turn === a.report.turn)
          )
            this.showError(
              `Turn ${a.report.turn}: the dealer did not serve its tiles; Retrying… (its fog stays as it was until they come).`,
              false,
            );
        }
        this.render();
        if (a.kind === 'spawn' || a.kind === 'turn')
          await this.#retrying('Saving the game', () => this.#saveSession());
        continue;
      }
      this.status(
        g.phase === 'Play' ? `waiting for seat ${g.toMove} (turn ${g.turn})` : `waiting: ${g.phase}`,
      );
      this.render();
      // While the dealer does not serve our last turn, act() asks it again each time: with backoff, not each poll.
      unservedAsks = p.unserved ? unservedAsks + 1 : 0;
      await sleep(Math.min(8000, this.state.config.pollMs * 2 ** Math.min(unservedAsks, 5)));
    }
    this.status(`game over: ${this.state.phase}`);
    this.log(`game over (phase ${this.state.phase}); ${p.served.length} tiles served and verified`, 'end');
    this.render();
    const s = this.state.session!;
    const { owner, gameContract } = s.record;
    const closed = isFinalPhase(this.state.phase as GamePhaseName);
    // Until the game is closed the key keeps the gas to close it itself, and until the audit found something the
    // gas and deposit of a zone challenge (session.ts): the rest goes home now.
    const keep = closed
      ? 0n
      : await this.#retrying('Reading the fees', async () =>
          closingReserve(s.key.provider!, await p.chain.config(p.gameId)),
        );
    this.state.swept = await this.#retrying('Returning the funds', () =>
      sweepSession(s.key, owner, gameContract, keep),
    );
    if (!closed) {
      s.record.over = true;
      await this.#retrying('Saving the game', () => this.#saveSession());
    }
    this.log(
      `returned ${this.state.swept} wei to ${owner}${closed ? '' : `; the session key keeps ${keep} wei to close the game: this page closes it when its deadlines pass (or when you next join a game of this contract in this browser), then sends the stake's credit and the rest home`}`,
      'end',
    );
    this.ui.game.dataset.over = 'true';
    if (!closed) await this.#closeGame(p.gameId);
    else
      await this.#retrying('Saving the game', () =>
        this.#sessions.remove(owner, s.record.chainId, s.key.address),
      );
    this.ui.game.dataset.closed = 'true';
  }

  /**
   * After play, while the page stays open: looks at the game at each deadline (every 5 to 15 s), sends the exit
   * that is due, and once the game is settled or cancelled takes the key's credit and balance home and forgets it.
   */
  async #closeGame(gameId: bigint): Promise<void> {
    const s = this.state.session!;
    const { owner, gameContract, chainId } = s.record;
    let lastFailure = '';
    // The audit (P3) recomputes the whole map: until it found something, each look runs it.
    const ruleset = this.state.ruleset;
    let audit = ruleset ? { h: await loadHasher(), board: ruleset.board } : undefined;
    for (;;) {
      let step: Awaited<ReturnType<typeof closeStep>>;
      try {
        step = await closeStep(s.key, owner, gameContract, gameId, audit);
        if (step.audited) {
          audit = undefined;
          // Audited: the challenge's gas and deposit need no longer be kept.
          const keep = await closingReserve(s.key.provider!);
          this.state.swept =
            (this.state.swept ?? 0n) + (await sweepSession(s.key, owner, gameContract, keep));
          if (step.audited.kind === 'zone' || step.audited.kind === 'zone-roots')
            this.log(
              `audit: the posted root is not Gen(seed): proven on-chain (${step.audited.kind})`,
              'end',
            );
        }
      } catch (e) {
        // A claim that lost a race, a node behind, a second tab, a fee above the reserve: each look starts over,
        // so the next one tries again by itself (a Retry button would stop the closing until someone clicks).
        const m = describeError(e).message;
        if (m !== lastFailure) this.log(`closing the game: ${m}; trying again at the next look`, 'end');
        lastFailure = m;
        await sleep(CLOSE_LOOK_MS.max);
        continue;
      }
      lastFailure = '';
      this.state.phase = step.phase;
      if (step.claimed) this.log(`deadline passed: ${step.claimed.kind}: gas ${step.claimed.gas}`, 'end');
      if (step.closed) {
        this.state.swept = (this.state.swept ?? 0n) + step.returned;
        this.log(`game closed (${step.phase}): returned ${step.returned} wei to ${owner}`, 'end');
        await this.#retrying('Saving the game', () => this.#sessions.remove(owner, chainId, s.key.address));
        this.status(`game closed: ${step.phase}`);
        this.render();
        return;
      }
      this.status(
        `game over; ${step.phase} until ${new Date(step.deadline * 1000).toISOString()}: the page closes the game then`,
      );
      this.render();
      // Until the deadline by this clock, but never faster than the floor: the chain's clock may lag this one.
      const untilDeadline = step.deadline * 1000 - Date.now();
      await sleep(Math.max(CLOSE_LOOK_MS.min, Math.min(CLOSE_LOOK_MS.max, untilDeadline)));
    }
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

  /**
   * What the map draws of the model: its fog, except while an own turn's tiles are not in hand (rejected or not
   * served): then the fog of the turn before, as if that turn's vision had not come yet.
   */
  #frame() {
    const p = this.state.player!;
    const m = p.model!;
    const k = knowledgeOf(m);
    const live = m.fog().join('');
    const unserved = p.unserved?.turn ?? null;
    const fog = drawnFog(this.state.history, live, unserved);
    const VIEWS = ['undiscovered', 'visible', 'explored'] as const;
    const before = unserved === null ? null : this.state.history.filter((h) => h.turn < unserved).at(-1);
    return {
      ...k,
      view: fog === live ? k.view : [...fog].map((d) => VIEWS[Number(d)]!),
      fog,
      turn: unserved === null ? (m.turn ?? 0) : (before?.turn ?? 0),
    };
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
    const frame = p.model ? this.#frame() : null;
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
      svg.dataset.fog = frame.fog;
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
