/**
 * One player's whole client loop, glued from the SDK parts: the chain layer (GameChain), a Prover, the
 * DealerClient and the PlayerModel. Browser-safe: the demo, the CLI player and a web client share it.
 *
 *   join → commitShare → sealShare → (dealer posts the root) → spawn → { attack? → playTurn } … ; the attacked seat
 *   answers with respondCombat; syncEvents feeds the opponents' zone reveals and combat reveals to the model.
 *
 * With `persist` (a PlayerVault), the hidden state (snapshot.ts) is saved after every change, and a state change
 * is saved as pending before the transaction that makes it is sent (write-ahead). `join` resumes from a saved
 * snapshot; the chain decides which pending state is current (the one whose commitment the seat holds).
 */
import { CIRCUITS_VERSION } from '@shroud/core/circuits.ts';
import { leafHash, shareCommitment } from '@shroud/core/commitments.ts';
import { answerStride, decodeDisputeAnswer } from '@shroud/core/dispute.ts';
import { InputError } from '@shroud/core/errors.ts';
import { FIELD_MODULUS } from '@shroud/core/field.ts';
import { generateMap, packStartAreas } from '@shroud/core/generator/index.ts';
import { type Board, type Coord, leafCoord, leafIndex, tileIndex, zoneOf } from '@shroud/core/geometry.ts';
import type { MapProof } from '@shroud/core/mapproof/types.ts';
import { zoneRoots as zoneRootsOf } from '@shroud/core/mapproof/witness.ts';
import { commitOpenMap, type MapCommitment } from '@shroud/core/maptree.ts';
import { merklePath, rootFromPath } from '@shroud/core/merkle.ts';
import type { Hasher } from '@shroud/core/poseidon.ts';
import type { ServedTile } from '@shroud/core/reveal-request.ts';
import { rulesetHash } from '@shroud/core/ruleset/hash.ts';
import type { ValidRuleset } from '@shroud/core/ruleset/validate.ts';
import { addressToField } from '@shroud/core/sealed.ts';
import { playCommitment, type Slots, stateCommitment, type Unit } from '@shroud/core/state.ts';
import { type Feature, isPassable, type Resource, type Terrain } from '@shroud/core/tile.ts';
import {
  attackWitness,
  combatWitness,
  type DestinationProof,
  spawnWitness,
  type TurnArgs,
  turnWitness,
} from '@shroud/core/witness/inputs.ts';
import { auditRoot, type RootAudit } from './audit.ts';
import {
  ChainError,
  type GameChain,
  type GameEvent,
  type GameState,
  type JoinedGame,
  type Prover,
  randomField,
  type TxResult,
} from './chain.ts';
import { claimExpired, type ExpiredClaim, withdrawCredit } from './closing.ts';
import type { DealerClient } from './dealer-client.ts';
import {
  DealerRefusedError,
  DealerUnavailableError,
  GameTermsRejectedError,
  refusingUnverified,
  TileRejectedError,
  ZoneRootsRejectedError,
} from './errors.ts';
import type { MapProofClaim } from './mapproof.ts';

export { refusingUnverified };

import { PlayerModel } from './player.ts';
import {
  type PendingReveal,
  type PendingState,
  type PlayerSnapshot,
  SNAPSHOT_VERSION,
  type SnapshotStore,
  StaleSnapshotError,
  StateLostError,
} from './snapshot.ts';
import { checkGameTerms, type TermsPolicy } from './terms.ts';
import { type VerifiedTile, verifyRevealedTiles } from './tiles.ts';
import { zoneRootsBuild } from './zone-roots.ts';

/** A turn's intent (the bot's `BotPlan` has this shape): destinations per slot, reveal leaves, an attack. */
export interface TurnIntent {
  moves: (Coord | null)[];
  /** Zone-major leaf indices, each in vision after the moves (at most maxRevealedTiles). */
  reveal: number[];
  attack?: { slot: number; target: Coord };
}

/** What one accepted spawn or turn did, for progress lines. */
export interface TurnReport {
  kind: 'spawn' | 'turn';
  turn: number;
  seat: number;
  moved: number;
  /** Where the units that moved went (slot order). */
  destinations: Coord[];
  /**
   * True when the turn proof showed every destination passable against the on-chain map root (rulesets
   * with `provePassability`; the contract verified it with the posted root as the proof's mapRoot).
   */
  provedPassable: boolean;
  tilesRevealed: number;
  /** The dealer did not serve this turn's tiles (down, refusing, or lying): `disputeUnserved` is the way out. */
  unserved: boolean;
  /** Own units the proof force-revealed (ZoneReveal events of this transaction). */
  zoneReveals: number;
  proofMs: number;
  gas: bigint;
  tx: string;
}

export interface AttackReport {
  turn: number;
  seat: number;
  defender: number;
  target: Coord;
  proofMs: number;
  gas: bigint;
}

export interface CombatReport {
  seat: number;
  attacker: number;
  target: Coord;
  present: boolean;
  unitType: number;
  hpBefore: number;
  killed: boolean;
  proofMs: number;
  gas: bigint;
}

export interface GamePlayerOptions {
  /** The game contract, connected to this player's signer. */
  chain: GameChain;
  dealer: DealerClient;
  prover: Prover;
  h: Hasher;
  ruleset: ValidRuleset;
  gameId: bigint;
  /** How long to retry a reveal the dealer does not know yet (its chain view lagging); default 10 s. */
  revealWaitMs?: number;
  /**
   * The longest one fetch of a turn's tiles may hold this player, retries included; default 20 s. A dealer that
   * answers slowly (or never) must not keep the seat from its next deadline (its turn, a combat answer): past it,
   * the turn counts as unserved (retried later, or disputed) and play goes on.
   */
  revealBudgetMs?: number;
  /** What this player accepts of a game's terms, checked before it stakes (the ruleset's hash is always checked). */
  terms?: TermsPolicy;
  /**
   * Where the hidden state is kept (a PlayerVault): saved after every change and before every transaction that
   * depends on it; `join` resumes from what it holds.
   */
  persist?: SnapshotStore;
  /** Check the game's ZK map proof once the dealer posted it (`checkMapProof`). */
  mapProof?: MapProofOptions;
}

/** Where a player finds the game's map proof on-chain, and how it verifies it. */
export interface MapProofOptions {
  /** The MapProofRegistry the dealer posts to (the deployment record's `mapProofRegistry`). */
  registry: string;
  /**
   * Verifies a proof against the chain's values, throwing MapProofError: `verifyMapProof` of
   * `@shroud/sdk/mapproof.ts` (its own module: it loads snarkjs' curve) bound to the verification keys this player
   * trusts.
   */
  verify: (claim: MapProofClaim, proof: MapProof) => Promise<void>;
}

/** A map proof this player verified. */
export interface MapProofCheck {
  /** The game's turn when this player found the proof recorded on-chain and verified it. */
  turn: number;
  /** Milliseconds the verification took (every chunk proof and the root proof). */
  verifyMs: number;
  /** When it was verified (Unix milliseconds). */
  at: number;
}

/** A turn whose tiles the dealer did not serve: the opening a dispute puts on-chain. */
export type UnservedTurn = PendingReveal;

/** What following a dispute or an open-root proposal did this time. */
export type FollowUp =
  | { kind: 'accepted'; tiles: number }
  | { kind: 'challenged'; index: number }
  | { kind: 'claimed' }
  | { kind: 'proposed' }
  | null;

const now = () => performance.now();

export class GamePlayer {
  readonly chain: GameChain;
  readonly dealer: DealerClient;
  readonly prover: Prover;
  readonly h: Hasher;
  readonly ruleset: ValidRuleset;
  readonly gameId: bigint;
  readonly address: string;
  readonly seat: number;
  readonly players: string[];
  /** Null until the spawn was accepted. */
  model: PlayerModel | null = null;
  #slots: Slots = [];
  #blinding = 0n;
  /** The reveal commitment bound with the state in the seat's stored play commitment (its latest spawn or turn). */
  #revealCommit = 0n;
  #root = 0n;
  #share: bigint | null = null;
  #syncedBlock: number;
  /** The block this player joined at: where its event queries start. */
  readonly #joinedBlock: number;
  /** The block this player joined the game at: where its logs are read from. */
  get joinedBlock(): number {
    return this.#joinedBlock;
  }
  /** The audit's root check ran (auditRoot): the map is recomputed once per game. */
  #rootAudited = false;
  readonly #revealWaitMs: number;
  readonly #revealBudgetMs: number;
  /** Every tile served and verified, for the post-game audit. */
  readonly served: VerifiedTile[] = [];
  /** The verified opening (tile, salt, path) of every tile served, by row-major index: passability witnesses. */
  readonly #openings = new Map<number, VerifiedTile>();
  /** The map's zone roots, checked against the on-chain root; fetched once, on the first turn that needs them. */
  #zoneRoots: bigint[] | null = null;
  /** Opponent zone reveals dropped because they named a zone this model does not watch (combat leftovers). */
  droppedReveals = 0;
  readonly #terms: TermsPolicy;
  /** This player's latest turn, when its tiles were not served. */
  #unserved: UnservedTurn | null = null;
  /** The public map after force-open (seed revealed): tiles and the salt-0 tree. */
  #open: { tiles: ReturnType<typeof generateMap>; commitment: MapCommitment } | null = null;
  /** State changes whose transaction was (or is about to be) sent; the chain's state commitment picks one. */
  #pending: PendingState[] = [];
  /** Slots that attacked on chain turn `turn`. */
  #attacked = { turn: -1, slots: [] as number[] };
  readonly #persist: SnapshotStore | undefined;
  #chainId: bigint | null = null;
  /** Saves run one after another, each with the state of the moment it was asked for. */
  #saving: Promise<void> = Promise.resolve();
  /** True when this player was resumed from a saved snapshot. */
  resumed = false;
  readonly #mapProof: MapProofOptions | undefined;
  /** The game's map proof as this player verified it; null until `checkMapProof` found and verified it. */
  mapProof: MapProofCheck | null = null;

  private constructor(o: GamePlayerOptions, joined: JoinedGame, address: string, block: number) {
    this.chain = o.chain;
    this.dealer = o.dealer;
    this.prover = o.prover;
    this.h = o.h;
    this.ruleset = o.ruleset;
    this.gameId = o.gameId;
    this.address = address;
    this.seat = joined.seat;
    this.players = joined.players;
    this.#syncedBlock = block;
    this.#joinedBlock = block;
    this.#revealWaitMs = o.revealWaitMs ?? 10_000;
    this.#revealBudgetMs = o.revealBudgetMs ?? 20_000;
    this.#terms = { ...o.terms, rulesetHash: rulesetHash(o.ruleset) };
    this.#persist = o.persist;
    this.#mapProof = o.mapProof;
  }

  /**
   * Reads the game and this signer's seat; checks the board matches the ruleset. With `persist`, resumes from the
   * snapshot it holds (see `resume`), or starts one.
   */
  static async join(o: GamePlayerOptions): Promise<GamePlayer> {
    const saved = o.persist ? await o.persist.load(o.ruleset) : null;
    if (saved) return GamePlayer.resume(o, saved);
    const { address, joined } = await seatOf(o);
    const block = await o.chain.provider.getBlockNumber();
    const p = new GamePlayer(o, joined, address, Math.max(0, block - 1));
    if (o.persist) {
      p.#chainId = await o.chain.chainId();
      await p.#save();
    }
    return p;
  }

  /**
   * Continues from `snapshot` after a crash or a reload. It must be this chain's, contract's, game's and signer's
   * (InputError naming the field otherwise) and this game instance's: a share that does not open the seat's
   * on-chain commitment is a StaleSnapshotError (a dev chain restarted with the same ids). A pending state whose
   * commitment the seat now holds becomes current (its tiles are fetched); when the chain holds a state the
   * snapshot cannot open, StateLostError.
   */
  static async resume(o: GamePlayerOptions, snapshot: PlayerSnapshot): Promise<GamePlayer> {
    const { address, joined } = await seatOf(o);
    const chainId = await o.chain.chainId();
    const s = snapshot;
    const expect: [keyof PlayerSnapshot, unknown, unknown][] = [
      ['version', s.version, SNAPSHOT_VERSION],
      ['chainId', s.chainId, chainId],
      ['contract', s.contract.toLowerCase(), o.chain.address.toLowerCase()],
      ['gameId', s.gameId, o.gameId],
      ['player', s.player.toLowerCase(), address],
      ['rulesetHash', s.rulesetHash.toLowerCase(), rulesetHash(o.ruleset).toLowerCase()],
    ];
    for (const [field, got, want] of expect)
      if (got !== want) throw new InputError(`snapshot.${field}`, `${got} is not this player's ${want}`);
    // Same chain, contract, game id and player but another seat: an earlier game under a reused id (a restarted
    // dev chain), where this player sat elsewhere.
    if (s.seat !== joined.seat)
      throw new StaleSnapshotError(
        `snapshot.seat: ${s.seat}, but this game seats the player at ${joined.seat}`,
      );
    const p = new GamePlayer(o, joined, address, s.joinedBlock);
    p.#chainId = chainId;
    p.#syncedBlock = s.syncedBlock;
    p.#share = s.share;
    p.#pending = s.pending.map((x) => ({ ...x, slots: copySlots(x.slots) }));
    p.#unserved = s.unserved && { ...s.unserved, leaves: [...s.unserved.leaves] };
    p.#keep(s.served);
    p.#attacked = { turn: s.attacked.turn, slots: [...s.attacked.slots] };
    p.droppedReveals = s.droppedReveals;
    if (s.state && s.model) {
      p.#slots = copySlots(s.state.slots);
      p.#blinding = s.state.blinding;
      p.#revealCommit = s.state.revealCommit;
      p.model = PlayerModel.restore({ ruleset: o.ruleset, seat: joined.seat }, s.model);
    } else if (s.state || s.model) {
      throw new InputError(s.state ? 'snapshot.model' : 'snapshot.state', 'missing while the other is set');
    }
    p.resumed = true;
    await p.#checkShare();
    await p.#reconcile(true);
    await p.#save();
    return p;
  }

  /**
   * The hidden state as data (for an export; `persist` saves it by itself). Reads the chain id once if `join` had
   * no `persist`.
   */
  async snapshot(): Promise<PlayerSnapshot> {
    this.#chainId ??= await this.chain.chainId();
    return this.#snapshotNow();
  }

  #snapshotNow(): PlayerSnapshot {
    if (this.#chainId === null) throw new Error('snapshot: chain id not read');
    return {
      version: SNAPSHOT_VERSION,
      chainId: this.#chainId,
      contract: this.chain.address.toLowerCase(),
      gameId: this.gameId,
      player: this.address,
      seat: this.seat,
      rulesetHash: rulesetHash(this.ruleset).toLowerCase(),
      joinedBlock: this.#joinedBlock,
      syncedBlock: this.#syncedBlock,
      share: this.#share,
      state: this.model
        ? { slots: copySlots(this.#slots), blinding: this.#blinding, revealCommit: this.#revealCommit }
        : null,
      pending: this.#pending.map((x) => ({ ...x, slots: copySlots(x.slots) })),
      unserved: this.unserved,
      served: [...this.served],
      model: this.model?.snapshot() ?? null,
      attacked: { turn: this.#attacked.turn, slots: [...this.#attacked.slots] },
      droppedReveals: this.droppedReveals,
    };
  }

  /** Saves the state of this moment through `persist` (a no-op without); resolves once it is stored. */
  #save(): Promise<void> {
    const persist = this.#persist;
    if (!persist) return Promise.resolve();
    const snap = this.#snapshotNow();
    this.#saving = this.#saving.catch(() => {}).then(() => persist.save(snap));
    return this.#saving;
  }

  /** The share must open the seat's on-chain C_i; a snapshot past the commit must have a committed seat. */
  async #checkShare(): Promise<void> {
    const me = await this.chain.seat(this.gameId, this.seat);
    if (me.committed) {
      if (this.#share === null)
        throw new StateLostError(`seat ${this.seat} committed a share this snapshot does not hold`);
      const c = shareCommitment(this.h, this.gameId, addressToField(this.address), this.#share);
      if (c !== me.commitment)
        throw new StaleSnapshotError(
          `its share does not open seat ${this.seat}'s commitment in game ${this.gameId}: it is from an earlier game with the same id`,
        );
    } else if (this.model || this.#pending.length > 0) {
      throw new StaleSnapshotError(
        `it has units, but seat ${this.seat} of game ${this.gameId} has not even committed: it is from an earlier game with the same id`,
      );
    }
  }

  /** The current state's own commitment (what opens the stored play commitment with the reveal commitment). */
  #stateCommit(): bigint {
    return stateCommitment(this.h, this.#slots, this.ruleset.unitSlots, this.#blinding);
  }

  /** The play commitment of the current state, as the seat stores it (0 before the spawn). */
  async #commitment(): Promise<bigint> {
    if (!this.model) return 0n;
    const root = await this.#boundRoot(await this.chain.game(this.gameId));
    return playCommitment(this.h, this.#stateCommit(), this.#revealCommit, root);
  }

  /**
   * The map root the seat's play commitment binds: the game's root, except after an open root was adopted while
   * this seat has not rebound (then the dealer's root it replaced). Read from the chain every time, never cached: a
   * rebind whose answer was lost (sent, then an RPC error) must not leave the seat proving on the old root. `g`:
   * the game as just read by the caller.
   */
  async #boundRoot(g: GameState): Promise<bigint> {
    if (!g.rootAdopted) return g.root;
    const me = await this.chain.seat(this.gameId, this.seat);
    return me.spawned && !me.rebound ? g.replacedRoot : g.root;
  }

  /**
   * After an open root was adopted (a force-opened passability game), re-binds this seat's play commitment to it
   * before the seat's next turn: turns prove moves against the root inside the commitment, and the contract
   * refuses a turn from a seat still bound to the dealer's root (`NotRebound`). Null when there is nothing to do.
   */
  async rebind(): Promise<TxResult | null> {
    await this.#reconcile();
    if (!this.model) return null;
    const g = await this.chain.game(this.gameId);
    if (!g.rootAdopted) return null;
    const me = await this.chain.seat(this.gameId, this.seat);
    if (!me.spawned || me.rebound || me.forfeited) return null;
    return this.chain.rebind(this.gameId, this.#stateCommit(), this.#revealCommit);
  }

  /**
   * Makes the current state the one the seat's on-chain commitment opens: a pending state that landed is adopted
   * (its tiles fetched); pending states of an older base are dropped. StateLostError when none opens it. Without
   * pending states only a resume (`always`) asks: in play, the state and the chain move together.
   */
  async #reconcile(always = false): Promise<void> {
    if (!always && this.#pending.length === 0) return;
    const onChain = (await this.chain.seat(this.gameId, this.seat)).playCommitment;
    const mine = await this.#commitment();
    if (onChain === mine) {
      const live = this.#pending.filter((x) => x.from === mine);
      if (live.length !== this.#pending.length) {
        this.#pending = live;
        await this.#save();
      }
      return;
    }
    const landed = this.#pending.find((x) => x.newCommit === onChain);
    if (!landed)
      throw new StateLostError(
        `seat ${this.seat}'s on-chain play commitment opens to neither the saved state nor a pending one (an older copy of the state?)`,
      );
    await this.#adopt(landed);
  }

  /** Saves `p` as pending: from here on a crash cannot lose the state its transaction puts on-chain. */
  async #writeAhead(p: PendingState): Promise<void> {
    this.#pending.push(p);
    await this.#save();
  }

  /**
   * `p`'s transaction landed: it becomes the state, its tiles are fetched and applied, and it is saved. Nothing
   * changes before the tiles are in hand, so a crash here resumes from `p` again.
   */
  async #adopt(p: PendingState): Promise<VerifiedTile[] | null> {
    const r = p.reveal;
    const tiles = r ? await this.#tilesOf(r) : null;
    const model =
      p.kind === 'spawn'
        ? new PlayerModel({ ruleset: this.ruleset, seat: this.seat, units: p.slots })
        : this.#need();
    model.setUnits(p.slots);
    this.#slots = copySlots(p.slots);
    this.#blinding = p.blinding;
    this.#pending = [];
    if (r) {
      // A spawn or turn binds its own reveal list into the play commitment; a combat answer keeps the seat's.
      this.#revealCommit = r.revealCommit;
      this.#unserved = tiles === null ? { ...r, leaves: [...r.leaves] } : null;
      if (tiles) this.#keep(tiles);
      model.applyTurn({ turn: r.turn, visibleTiles: model.visionOf(p.slots), tiles: tiles ?? [] });
    }
    this.model = model;
    await this.#save();
    return tiles;
  }

  get units(): Slots {
    return this.#slots.map((u) => (u ? { ...u } : null));
  }

  /** The verified opening of the tile at `c`, or null if none was served to this player. */
  opening(c: Coord): VerifiedTile | null {
    return this.#openings.get(tileIndex(this.ruleset.board, c)) ?? null;
  }

  /** The zone roots once fetched and verified against the on-chain root (null before). */
  get zoneRoots(): readonly bigint[] | null {
    return this.#zoneRoots;
  }

  /** True when this player checks the game's map proof (joined with `mapProof`). */
  get checksMapProof(): boolean {
    return this.#mapProof !== undefined;
  }

  /**
   * Checks the game's ZK map proof once the MapProofRegistry recorded it: fetches the chunk proofs from the dealer
   * and verifies them and the root proof against the chain's values (game, seats, share commitments, root) and
   * the registry's record. Null while there is no record yet or the dealer does not serve the proof; after that
   * the check made (once). Throws MapProofError for a false proof: the dealer's map is not shown to be Gen(seed)
   * for the ceremony's seed, and the player should not play on.
   */
  async checkMapProof(): Promise<MapProofCheck | null> {
    if (this.mapProof) return this.mapProof;
    const o = this.#mapProof;
    if (!o) throw new Error('checkMapProof: this player was joined without mapProof options');
    const recorded = await this.chain.mapProofRecord(o.registry, this.gameId);
    if (!recorded) return null;
    const proof = await this.dealer.fetchMapProof(this.gameId);
    if (!proof) return null;
    const shareCommits: bigint[] = [];
    for (let i = 0; i < this.players.length; i++)
      shareCommits.push((await this.chain.seat(this.gameId, i)).commitment);
    const claim = {
      board: this.ruleset.board,
      maxPlayers: this.ruleset.players.max,
      gameId: this.gameId,
      players: this.players.map(addressToField),
      shareCommits,
      root: await this.#chainRoot(),
      recorded,
    };
    const t0 = now();
    await refusingUnverified(() => o.verify(claim, proof));
    const verifyMs = now() - t0;
    this.mapProof = { turn: (await this.chain.game(this.gameId)).turn, verifyMs, at: Date.now() };
    return this.mapProof;
  }

  /** The root read from the chain (0n until `waitForRoot`). */
  get root(): bigint {
    return this.#root;
  }

  /**
   * Commits to a fresh random share (phase Commit), after checking the game's terms: durations within the
   * floors, a seal key the proof can be made for, the stake and deposit within this player's policy, the
   * ruleset it expects. A game outside them is refused with GameTermsRejectedError before anything is paid.
   */
  async commitShare(): Promise<TxResult> {
    const config = await this.chain.config(this.gameId);
    checkGameTerms(config, this.#terms);
    // A game whose registry holds other circuits' verifiers would refuse every proof this client makes.
    const version = await this.chain.circuitsVersion();
    if (version !== CIRCUITS_VERSION) {
      throw new GameTermsRejectedError(
        'circuitsVersion',
        `the game's verifiers are for circuits version ${version}; this client proves version ${CIRCUITS_VERSION}`,
      );
    }
    // The chain regenerates tiles (fraud proofs, a force-open) with the registry's start areas: a game whose
    // registry lacks them, or holds others, could not convict a lying dealer (or would convict an honest one).
    const starts = await this.chain.startAreas(config.rulesetHash);
    if (starts !== packStartAreas(this.ruleset.board)) {
      throw new GameTermsRejectedError(
        'startAreas',
        `the registry's start areas for this ruleset (${starts}) are not the ruleset's (${packStartAreas(this.ruleset.board)})`,
      );
    }
    if (this.#share === null) {
      this.#share = randomField();
      await this.#save(); // before the commitment to it goes out
    }
    return this.chain.commitShare(this.h, this.gameId, this.#share);
  }

  /** Posts the committed share sealed to the dealer's key, with its proof (phase Reveal). */
  async sealShare(): Promise<TxResult> {
    if (this.#share === null) throw new Error('commitShare first');
    return this.chain.sealShare(this.h, this.prover, this.gameId, this.#share);
  }

  /** This player's share (known only after `commitAndSeal`). */
  get share(): bigint | null {
    return this.#share;
  }

  async waitForRoot(o?: { timeoutMs?: number; pollMs?: number }): Promise<bigint> {
    this.#root = await this.chain.waitForRoot(this.gameId, o);
    return this.#root;
  }

  /** Deterministic spawn spots: distinct tiles of this seat's start area, spread by `rnd`. */
  spawnPositions(rnd: () => number = Math.random): Coord[] {
    const a = this.ruleset.startAreas[this.seat]!;
    const all: Coord[] = [];
    for (let row = a.row0; row <= a.row1; row++)
      for (let col = a.col0; col <= a.col1; col++) all.push({ col, row });
    const out: Coord[] = [];
    for (let i = 0; i < this.ruleset.spawn.length; i++)
      out.push(all.splice(Math.floor(rnd() * all.length), 1)[0]!);
    return out;
  }

  /** The spawn turn: units placed at `positions`, the tiles they see revealed (up to the ruleset's limit). */
  async spawn(positions: readonly Coord[]): Promise<TurnReport> {
    await this.#reconcile();
    if (this.model) throw new Error('spawn: this seat has spawned already');
    const r = this.ruleset;
    // Checked at the first turn, not the first move: zone roots that do not build the root are proven on-chain
    // while this seat still has its spawn turn's time (the game is force-opened), never at a later deadline.
    if (r.provePassability) await this.#verifiedZoneRoots();
    const slots: (Unit | null)[] = new Array(r.unitSlots).fill(null);
    r.spawn.forEach((name, i) => {
      const type = r.unitTypes.findIndex((t) => t.name === name);
      slots[i] = { type, hp: r.unitTypes[type]!.hp, col: positions[i]!.col, row: positions[i]!.row };
    });
    const model = new PlayerModel({ ruleset: r, seat: this.seat, units: slots });
    const leaves = nearestFirst(r, [...model.visionOf(slots)], slots).slice(0, r.maxRevealedTiles);
    const revealBlinding = randomField();
    const blinding = randomField();
    const { turn, root } = await this.chain.game(this.gameId);
    const plan = spawnWitness(r, this.h, {
      mapRoot: root,
      gameId: this.gameId,
      player: addressToField(this.address),
      seat: this.seat,
      slots,
      blinding,
      revealed: leaves.map((l) => leafCoord(r.board, l)!),
      revealBlinding,
      oppMasks: await this.chain.opponentMasks(this.gameId, this.seat, r.players.max),
    });
    const t0 = now();
    const proof = await this.prover.prove('spawn', plan);
    const proofMs = now() - t0;
    const pending: PendingState = {
      kind: 'spawn',
      turn,
      from: 0n,
      newCommit: plan.newCommit,
      slots,
      blinding,
      reveal: {
        turn,
        leaves,
        blinding: revealBlinding,
        revealCommit: plan.revealCommit,
        stateCommit: plan.stateCommit,
      },
    };
    await this.#writeAhead(pending);
    const tx = await this.chain.spawn(this.gameId, plan, proof);
    const tiles = await this.#adopt(pending);
    return this.#report('spawn', turn, slots.filter(Boolean).length, [], tiles, proofMs, tx);
  }

  /** One turn: moves, proof, submission, then the revealed tiles fetched, verified and applied to the fog. */
  async playTurn(intent: TurnIntent): Promise<TurnReport> {
    await this.rebind();
    await this.#reconcile();
    this.#need();
    const r = this.ruleset;
    const oldSlots = this.#slots;
    const destinations: Coord[] = [];
    const newSlots = oldSlots.map((u, i) => {
      const to = intent.moves[i];
      if (!u || !to || (to.col === u.col && to.row === u.row)) return u ? { ...u } : null;
      destinations.push({ col: to.col, row: to.row });
      return { ...u, col: to.col, row: to.row };
    });
    // Checked before any network call or proof: a move onto a tile this player never verified fails here.
    const destProofs = r.provePassability ? this.#destinations(oldSlots, newSlots) : null;
    const passability: TurnArgs['passability'] = destProofs
      ? {
          zoneRoots: await this.#verifiedZoneRoots(),
          destinations: destProofs,
        }
      : undefined;
    const g = await this.chain.game(this.gameId);
    const turn = g.turn;
    const newBlinding = randomField();
    const revealBlinding = randomField();
    const plan = turnWitness(r, this.h, {
      mapRoot: await this.#boundRoot(g),
      player: addressToField(this.address),
      seat: this.seat,
      turn: BigInt(turn),
      oldSlots,
      oldBlinding: this.#blinding,
      oldRevealCommit: this.#revealCommit,
      newSlots,
      newBlinding,
      revealed: intent.reveal.map((l) => {
        const c = leafCoord(r.board, l);
        if (!c) throw new InputError('reveal', `${l} is not an on-board leaf`);
        return c;
      }),
      revealBlinding,
      oppMasks: await this.chain.opponentMasks(this.gameId, this.seat, r.players.max),
      ...(passability ? { passability } : {}),
    });
    const t0 = now();
    const proof = await this.prover.prove('turn', plan);
    const proofMs = now() - t0;
    const pending: PendingState = {
      kind: 'turn',
      turn,
      from: plan.oldCommit,
      newCommit: plan.newCommit,
      slots: newSlots,
      blinding: newBlinding,
      reveal: {
        turn,
        leaves: [...intent.reveal],
        blinding: revealBlinding,
        revealCommit: plan.revealCommit,
        stateCommit: plan.stateCommit,
      },
    };
    await this.#writeAhead(pending);
    const tx = await this.chain.submitTurn(this.gameId, plan, proof);
    const tiles = await this.#adopt(pending);
    return this.#report('turn', turn, destinations.length, destinations, tiles, proofMs, tx);
  }

  /** Attacks `target` with `slot` during this player's turn (before `playTurn`); the game enters combat. */
  async attack(slot: number, target: Coord, defender?: number): Promise<AttackReport> {
    await this.#reconcile();
    this.#need();
    const g = await this.chain.game(this.gameId);
    const turn = g.turn;
    const def = defender ?? this.#defenderFor(target);
    const plan = attackWitness(this.ruleset, this.h, {
      mapRoot: await this.#boundRoot(g),
      gameId: this.gameId,
      player: addressToField(this.address),
      turn: BigInt(turn),
      slots: this.#slots,
      blinding: this.#blinding,
      revealCommit: this.#revealCommit,
      slot,
      target,
    });
    const t0 = now();
    const proof = await this.prover.prove('attack', plan);
    const proofMs = now() - t0;
    // Written first: the nullifier is spent once the attack lands, so a resumed bot must not pick the slot again.
    if (this.#attacked.turn !== turn) this.#attacked = { turn, slots: [] };
    this.#attacked.slots.push(slot);
    await this.#save();
    let tx: TxResult;
    try {
      tx = await this.chain.attack(this.gameId, plan, proof, target, def);
    } catch (e) {
      // A decoded revert spent nothing (unless it says the nullifier was spent).
      if (e instanceof ChainError && e.revert && e.revert !== 'NullifierUsed') {
        this.#attacked.slots = this.#attacked.slots.filter((x) => x !== slot);
        await this.#save();
      }
      throw e;
    }
    return { turn, seat: this.seat, defender: def, target: { ...target }, proofMs, gas: tx.gasUsed };
  }

  /** Slots that attacked on chain turn `turn` (their nullifiers are spent for it). */
  attackedSlots(turn: number): Set<number> {
    return new Set(this.#attacked.turn === turn ? this.#attacked.slots : []);
  }

  /** Whether the game waits for this player's combat answer. */
  async mustRespond(): Promise<boolean> {
    const g = await this.chain.game(this.gameId);
    if (g.phase !== 'Combat') return false;
    // The phase read may be stale by now: only the combat record, read at once, says who must answer.
    const c = await this.chain.combat(this.gameId);
    return c.pending && c.defender === this.seat;
  }

  /** Answers the pending combat with a proof of presence (the unit is hit) or absence (it fizzles). */
  async respondCombat(): Promise<CombatReport> {
    await this.#reconcile();
    this.#need();
    const c = await this.chain.combat(this.gameId);
    if (!c.pending) throw new Error('no combat is pending');
    if (c.defender !== this.seat)
      throw new Error(`the pending combat names seat ${c.defender}, not ${this.seat}`);
    const g = await this.chain.game(this.gameId);
    const turn = g.turn;
    const target = { col: c.col, row: c.row };
    const plan = combatWitness(this.ruleset, this.h, {
      mapRoot: await this.#boundRoot(g),
      gameId: this.gameId,
      player: addressToField(this.address),
      turn: BigInt(turn),
      slots: this.#slots,
      blinding: this.#blinding,
      revealCommit: this.#revealCommit,
      target,
      damage: await this.chain.damage(this.gameId),
    });
    const t0 = now();
    const proof = await this.prover.prove('combat', plan);
    const proofMs = now() - t0;
    const pending: PendingState = {
      kind: 'combat',
      turn,
      from: plan.oldCommit,
      newCommit: plan.newCommit,
      slots: plan.after,
      blinding: this.#blinding,
      reveal: null,
    };
    await this.#writeAhead(pending);
    const tx = await this.chain.respondCombat(this.gameId, plan, proof);
    await this.#adopt(pending);
    const ev = tx.events.find((e) => e.kind === 'CombatResolved');
    return {
      seat: this.seat,
      attacker: c.attacker,
      target,
      present: plan.present,
      unitType: plan.unitType,
      hpBefore: plan.unitHp,
      killed: ev?.kind === 'CombatResolved' ? ev.killed : false,
      proofMs,
      gas: tx.gasUsed,
    };
  }

  /**
   * Reads the game's events since the last sync and feeds the model: each opponent turn's zone reveals
   * (its absences too: a watched unit not re-revealed has moved away), and combat reveals (exact tiles).
   */
  async syncEvents(): Promise<GameEvent[]> {
    // A state change sent before a crash may have landed since: the model must hold it before anyone plans.
    await this.#reconcile();
    const head = await this.chain.provider.getBlockNumber();
    const events = await this.chain.events(this.gameId, this.#syncedBlock + 1, head);
    this.#syncedBlock = head;
    const model = this.model;
    if (!model) return events;
    this.#applyEvents(model, events);
    // Model and sync point together: a crash before this re-reads the same events onto the older model.
    if (events.length > 0) await this.#save();
    return events;
  }

  #applyEvents(model: PlayerModel, events: GameEvent[]): void {
    const byTx = new Map<string, GameEvent[]>();
    for (const e of events) byTx.set(e.tx, [...(byTx.get(e.tx) ?? []), e]);
    for (const group of byTx.values()) {
      for (const e of group) {
        if (e.kind === 'TurnSubmitted' && e.player !== this.address) {
          const opp = this.players.indexOf(e.player);
          const watched = model.watchedZones();
          const reveals = group.flatMap((z) =>
            z.kind === 'ZoneReveal' && z.player === e.player
              ? [{ zone: z.zone, unitType: this.ruleset.unitTypes[z.unitType]?.name ?? '' }]
              : [],
          );
          const kept = reveals.filter((z) => watched.has(z.zone) && z.unitType !== '');
          this.droppedReveals += reveals.length - kept.length;
          model.applyOpponentTurn({ player: opp, turn: e.turn, zoneReveals: kept });
        }
        if (e.kind === 'CombatResolved' && e.attacker === this.address) {
          const name = this.ruleset.unitTypes[e.unitType]?.name;
          if (!name || e.killed) continue;
          model.recordSighting({
            player: this.players.indexOf(e.defender),
            coord: { col: e.col, row: e.row },
            zone: zoneOf(this.ruleset.board, { col: e.col, row: e.row }),
            unitType: name,
            turn: model.turn ?? 0,
            source: 'combat',
          });
        }
      }
    }
  }

  #need(): PlayerModel {
    if (!this.model) throw new Error('not spawned yet');
    return this.model;
  }

  /** The seat of a live sighting in the target's zone, else the first other seat. */
  #defenderFor(target: Coord): number {
    const zone = zoneOf(this.ruleset.board, target);
    const seen = this.model?.lastSeen().find((s) => !s.lost && s.zone === zone);
    if (seen) return seen.player;
    return this.players.findIndex((_, i) => i !== this.seat);
  }

  async #chainRoot(): Promise<bigint> {
    if (this.#root === 0n) this.#root = await this.chain.root(this.gameId);
    return this.#root;
  }

  /**
   * Per slot, the verified opening of the destination of a unit that moves (null for the others).
   * Throws an InputError naming the move when the destination was never served to this player or is
   * not passable: the proof could not show it passable.
   */
  #destinations(oldSlots: Slots, newSlots: Slots): (DestinationProof | null)[] {
    return newSlots.map((to, i) => {
      const from = oldSlots[i] ?? null;
      if (!to || !from || (from.col === to.col && from.row === to.row)) return null;
      const o = this.opening(to);
      const where = `slot ${i} (${from.col},${from.row}) → (${to.col},${to.row})`;
      if (!o) {
        throw new InputError(
          `moves.${i}`,
          `${where}: ruleset ${this.ruleset.name} proves passability and this player holds no verified opening of the destination (reveal it first)`,
        );
      }
      if (!isPassable(o.terrain))
        throw new InputError(`moves.${i}`, `${where}: terrain ${o.terrain} is not passable`);
      return { tile: o, salt: o.salt, path: o.path };
    });
  }

  /**
   * The zone roots the dealer posted with the root (read from its `RootPosted` log: no dealer can withhold them),
   * checked to build the chain's root. When they do not, no passability turn can be proven against that root: this
   * seat proves it on-chain (`proveZoneRootsFraud`: the dealer is slashed and the game force-opened) and throws
   * ZoneRootsRejectedError.
   */
  async #verifiedZoneRoots(): Promise<bigint[]> {
    if (this.#zoneRoots) return this.#zoneRoots;
    const open = await this.#openMap();
    if (open) {
      if ((await this.#chainRoot()) !== open.commitment.tree.root)
        throw new Error('the adopted open root is not the salt-0 tree of Gen(seed)');
      this.#zoneRoots = zoneRootsOf(open.commitment, this.ruleset.board);
      return this.#zoneRoots;
    }
    const root = await this.#chainRoot();
    const roots = await this.chain.postedZoneRoots(this.gameId);
    if (!roots) throw new Error(`game ${this.gameId}: no root posted yet`);
    if (!zoneRootsBuild(this.h, this.ruleset.board, root, roots)) {
      await this.chain.proveZoneRootsFraud(this.gameId, roots);
      throw new ZoneRootsRejectedError(
        'bad-root',
        'the zone roots posted with the root do not build it: proven on-chain, the game is force-opened',
      );
    }
    this.#zoneRoots = roots;
    return roots;
  }

  /**
   * The turn's tiles, verified: from the dealer against the chain's root, or computed from the public seed
   * once the game was forced open. Null when the dealer did not serve them (unreachable, refusing, or serving
   * tiles that fail verification): the caller remembers the turn as unserved, for `disputeUnserved`.
   */
  async #tilesOf(r: PendingReveal): Promise<VerifiedTile[] | null> {
    if (r.leaves.length === 0) return [];
    const open = await this.#openMap();
    return open ? this.#openTiles(open, r.leaves) : await this.#fetch(r);
  }

  /**
   * The turn's opening for the dealer: its reveal list and the state commitment its play commitment binds. A
   * combat answer since the turn replaced the seat's stored value by Poseidon(current state, the same reveal
   * commitment); until the dealer has indexed the turn's own log it can only check that one, so a refused opening
   * is tried again with `current` (the state commitment now, when it differs).
   */
  async #fetch(r: PendingReveal, current?: bigint) {
    const { turn, leaves, blinding, revealCommit } = r;
    const root = await this.#chainRoot();
    let stateCommit = r.stateCommit;
    const fetch = () =>
      this.#whileDealerLags(['unknown-turn', 'unknown-game'], () =>
        this.dealer.fetchVerifiedTiles(this.h, this.ruleset.board, root, {
          gameId: this.gameId,
          turn,
          leaves,
          blinding,
          stateCommit,
        }),
      );
    const served = async () => {
      let tiles: VerifiedTile[];
      try {
        tiles = await fetch();
      } catch (e) {
        const retry = current !== undefined && current !== stateCommit;
        if (!(retry && e instanceof DealerRefusedError && e.code === 'opening-mismatch')) throw e;
        stateCommit = current;
        tiles = await fetch();
      }
      // Served and verified: the receipt lets the dealer show a later dispute of this turn false. Best effort.
      await this.dealer.sendReceipt(this.gameId, turn, revealCommit, stateCommit).catch(() => {});
      return tiles;
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<null>((res) => {
      timer = setTimeout(() => res(null), this.#revealBudgetMs);
    });
    try {
      // Past the budget the turn is unserved; the late answer, if any, is dropped (a later look asks again).
      const attempt = served();
      attempt.catch(() => {});
      return await Promise.race([attempt, budget]);
    } catch (e) {
      const unserved =
        e instanceof DealerUnavailableError ||
        e instanceof DealerRefusedError ||
        e instanceof TileRejectedError;
      if (!unserved) throw e;
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  #keep(tiles: readonly VerifiedTile[]): void {
    this.served.push(...tiles);
    for (const t of tiles) this.#openings.set(t.index, t);
  }

  /** This player's latest turn when its tiles were not served (null otherwise). */
  get unserved(): UnservedTurn | null {
    return this.#unserved ? { ...this.#unserved, leaves: [...this.#unserved.leaves] } : null;
  }

  /**
   * Asks the dealer again for the unserved turn's tiles (the dealer may have been briefly down); on success they
   * join the model as late tiles and the turn is no longer unserved. True when served.
   */
  async retryUnserved(): Promise<boolean> {
    const u = this.#unserved;
    if (!u) return true;
    const tiles = await this.#fetch(u, this.#stateCommit());
    if (tiles === null) return false;
    this.#keep(tiles);
    this.model?.addLateTiles(u.turn, tiles);
    this.#unserved = null;
    await this.#save();
    return true;
  }

  /**
   * Opens an on-chain reveal dispute for the unserved turn (P7): its opening becomes public (P6 given up for
   * that turn), the game's deposit is paid, and the game pauses until the dealer answers on-chain.
   */
  async disputeUnserved(): Promise<TxResult> {
    const u = this.#unserved;
    if (!u) throw new Error('no unserved turn to dispute');
    // The seat's stored play commitment binds the current state (a combat answer may have changed it since).
    await this.#reconcile();
    return this.chain.openDispute(this.gameId, u.leaves, u.blinding, this.#stateCommit());
  }

  /**
   * Follows this player's open dispute: once the dealer answered, checks every answered tile against the
   * chain's root as a served answer; accepts it (the tiles join the model) or challenges the first bad tile
   * (slashing the dealer). Past the deadline, claims the timeout. Null while there is nothing to do.
   */
  async followDispute(): Promise<FollowUp> {
    const g = await this.chain.game(this.gameId);
    if (g.phase !== 'Dispute') return null;
    const d = await this.chain.dispute(this.gameId);
    const u = this.#unserved;
    if (d.seat !== this.seat || !u || d.turn !== u.turn || !d.answered) {
      // Someone else's dispute, or the dealer has not answered: past the deadline, anyone moves the game on.
      if ((await this.#chainTime()) <= g.deadline) return null;
      await this.chain.claim('claimDisputeTimeout', this.gameId);
      return { kind: 'claimed' };
    }
    const answer = await this.#disputeAnswer(u.turn);
    const root = await this.#chainRoot();
    // Challenge exactly what the contract can judge: a word outside the field or a path that misses the root.
    const bad = answeredTileFailing(this.h, this.ruleset.board.depth, root, u.leaves, answer);
    if (bad !== null) {
      await this.chain.challengeDisputeAnswer(this.gameId, u.leaves, answer, bad);
      return { kind: 'challenged', index: bad };
    }
    // Every path verifies: the tiles are the root's. Contents the checks refuse (out of range) stay in `served`
    // for the post-game fraud proof, which is where such a lie is caught; only clean tiles join the model.
    const served: ServedTile[] = decodeDisputeAnswer(answer, u.leaves, this.ruleset.board);
    let tiles: VerifiedTile[];
    try {
      tiles = verifyRevealedTiles(this.h, this.ruleset.board, root, u.leaves, served);
      this.model?.addLateTiles(u.turn, tiles);
    } catch (e) {
      if (!(e instanceof TileRejectedError)) throw e;
      tiles = rawTiles(this.ruleset.board, u.leaves, answer);
    }
    this.#keep(tiles);
    // Tiles saved before the acceptance goes out; the turn stays unserved until it landed, so a crash in between
    // accepts again on resume.
    await this.#save();
    await this.chain.acceptDisputeAnswer(this.gameId);
    this.#unserved = null;
    await this.#save();
    return { kind: 'accepted', tiles: tiles.length };
  }

  /** The dealer's on-chain answer to this seat's dispute of `turn` (from its DisputeAnswered event). */
  async #disputeAnswer(turn: number): Promise<bigint[]> {
    const events = await this.chain.events(this.gameId, this.#joinedBlock);
    const ev = events.findLast(
      (e) => e.kind === 'DisputeAnswered' && e.seat === this.seat && e.turn === turn,
    );
    if (ev?.kind !== 'DisputeAnswered') throw new Error(`no DisputeAnswered event for turn ${turn}`);
    return ev.answer;
  }

  /**
   * Moves the game on past a missed deadline, so that nothing is ever stuck (P7): when the current phase's
   * deadline has passed, sends the call the contract allows (core/deadlines.ts): cancels a ceremony another seat
   * missed, forces the map open when the dealer posted no root, makes a silent seat to move or defender forfeit,
   * slashes a dealer that did not publish its secrets, settles after the audit. Never against this seat's own
   * duty (its turn, its combat answer). Null while there is nothing to do, or when another party's call got
   * there first (the call failed and the game has moved on since it was read: not an error).
   */
  async claimExpired(): Promise<ExpiredClaim | null> {
    return claimExpired(this.chain, this.gameId, async (call, g) =>
      call === 'claimTurnTimeout'
        ? g.toMove === this.seat
        : call === 'claimCombatTimeout' && (await this.chain.combat(this.gameId)).defender === this.seat,
    );
  }

  /** Once the game is settled or cancelled, withdraws this player's credit (stake, share of a slashed bond). */
  withdrawCredit(): Promise<{ wei: bigint; gas: bigint } | null> {
    return withdrawCredit(this.chain, this.gameId, this.players[this.seat]!);
  }

  /** Force-open: reveals this player's share on-chain (phase ForceOpen), once. */
  async revealShareOnChain(): Promise<TxResult> {
    if (this.#share === null) throw new Error('this player has no share (it never committed here)');
    return this.chain.revealShare(this.gameId, this.#share);
  }

  /**
   * Phase OpenRoot (a force-opened passability game): proposes the salt-0 root of Gen(seed) when nobody has;
   * challenges a proposal whose zone roots differ from this player's own computation with the first differing
   * zone's leaves; answers a challenge of a proposal that matches its own map with the true leaves; and, past
   * the deadline, claims (adopting a standing proposal it agrees with, or sinking an unanswered challenged one).
   * Null while there is nothing to do.
   */
  async followOpenRoot(): Promise<FollowUp> {
    const g = await this.chain.game(this.gameId);
    if (g.phase !== 'OpenRoot') return null;
    const open = (await this.#openMap())!;
    const myRoots = zoneRootsOf(open.commitment, this.ruleset.board);
    const zoneLeaves = (z: number) => open.commitment.tree.levels[0]!.slice(z * 64, z * 64 + 64);
    const proposal = await this.chain.openRoot(this.gameId);
    const me = await this.chain.seat(this.gameId, this.seat);
    const past = (await this.#chainTime()) > g.deadline;
    if (!proposal.proposed) {
      if (past) {
        await this.chain.claim('claimOpenRootTimeout', this.gameId);
        return { kind: 'claimed' };
      }
      if (me.proposedOpenRoot || me.forfeited) return null;
      await this.chain.proposeOpenRoot(this.gameId, myRoots);
      return { kind: 'proposed' };
    }
    const honest = proposal.root === open.commitment.tree.root;
    if (proposal.challenged) {
      if (honest) {
        // The challenger lied about a public computation: show the true leaves, and it forfeits.
        const ch = (await this.chain.events(this.gameId, this.#joinedBlock)).findLast(
          (e) => e.kind === 'OpenRootChallenged' && e.zone === proposal.zone,
        );
        if (ch?.kind === 'OpenRootChallenged') {
          await this.chain.answerOpenRootChallenge(
            this.gameId,
            myRoots,
            ch.leaves,
            zoneLeaves(proposal.zone),
          );
          return { kind: 'challenged', index: proposal.zone * 64 };
        }
      }
      if (!past) return null;
      await this.chain.claim('claimOpenRootTimeout', this.gameId);
      return { kind: 'claimed' };
    }
    if (!honest) {
      const ev = (await this.chain.events(this.gameId, this.#joinedBlock)).findLast(
        (e) => e.kind === 'OpenRootProposed' && e.root === proposal.root,
      );
      if (ev?.kind !== 'OpenRootProposed' || me.forfeited || proposal.proposer === this.seat) return null;
      const zone = Math.max(
        0,
        myRoots.findIndex((r, z) => ev.zoneRoots[z] !== r),
      );
      await this.chain.challengeOpenRoot(this.gameId, ev.zoneRoots, zone, zoneLeaves(zone));
      return { kind: 'challenged', index: zone * 64 };
    }
    if (!past) return null;
    await this.chain.claim('claimOpenRootTimeout', this.gameId);
    return { kind: 'claimed' };
  }

  /**
   * Phase Audit (P3 after the secrets): `auditRoot` (./audit.ts) until it found something: a posted root that is
   * not Gen(seed) is proven so on-chain whether or not a wrong tile was ever served. Null outside the audit and
   * once audited.
   */
  async auditRoot(): Promise<RootAudit | null> {
    if (this.#rootAudited) return null;
    const found = await auditRoot(this.chain, this.h, this.ruleset.board, this.gameId);
    this.#rootAudited = found !== null;
    return found;
  }

  /** The public map once the seed is on-chain (force-open); null while the game is fogged. */
  async #openMap(): Promise<{ tiles: ReturnType<typeof generateMap>; commitment: MapCommitment } | null> {
    if (this.#open) return this.#open;
    const g = await this.chain.game(this.gameId);
    if (!g.openMap) return null;
    const tiles = generateMap(this.h, this.ruleset.board, g.seed);
    this.#open = { tiles, commitment: commitOpenMap(this.h, this.ruleset.board, tiles) };
    this.#zoneRoots = null; // passability now opens against the open map's root
    this.#root = 0n;
    return this.#open;
  }

  /** Tiles of the open map with their salt-0 openings (checked against the chain's root when it is the open one). */
  #openTiles(open: { tiles: ReturnType<typeof generateMap>; commitment: MapCommitment }, leaves: number[]) {
    const b = this.ruleset.board;
    return leaves.map((leaf): VerifiedTile => {
      const c = leafCoord(b, leaf);
      if (!c) throw new InputError('reveal', `${leaf} is not an on-board leaf`);
      const index = tileIndex(b, c);
      return {
        ...open.tiles[index]!,
        leaf,
        ...c,
        index,
        salt: 0n,
        path: merklePath(open.commitment.tree, leaf),
      };
    });
  }

  async #chainTime(): Promise<number> {
    return (await this.chain.provider.getBlock('latest'))?.timestamp ?? 0;
  }

  /** Runs `fetch`, retrying for up to `revealWaitMs` while the dealer refuses with one of `codes` (its chain view lagging). */
  async #whileDealerLags<T>(codes: readonly string[], fetch: () => Promise<T>): Promise<T> {
    const until = Date.now() + this.#revealWaitMs;
    for (;;) {
      try {
        return await fetch();
      } catch (e) {
        const lag = e instanceof DealerRefusedError && codes.includes(e.code);
        if (!lag || Date.now() > until) throw e;
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  }

  #report(
    kind: 'spawn' | 'turn',
    turn: number,
    moved: number,
    destinations: Coord[],
    tiles: VerifiedTile[] | null,
    proofMs: number,
    tx: TxResult,
  ): TurnReport {
    return {
      kind,
      turn,
      seat: this.seat,
      moved,
      destinations,
      provedPassable: kind === 'turn' && this.ruleset.provePassability,
      tilesRevealed: tiles?.length ?? 0,
      unserved: tiles === null,
      zoneReveals: tx.events.filter((e) => e.kind === 'ZoneReveal').length,
      proofMs,
      gas: tx.gasUsed,
      tx: tx.hash,
    };
  }
}

/** Leaves of `tiles` (row-major indices), nearest to some unit first: the spawn's reveal list. */
function nearestFirst(r: ValidRuleset, tiles: number[], slots: Slots): number[] {
  const b = r.board;
  const units = slots.filter((u): u is Unit => u !== null);
  const dist = (i: number) => {
    const col = i % b.width;
    const row = Math.floor(i / b.width);
    return Math.min(...units.map((u) => Math.abs(u.col - col) + Math.abs(u.row - row)));
  };
  return tiles
    .sort((a, c) => dist(a) - dist(c) || a - c)
    .map((i) => leafIndex(b, { col: i % b.width, row: Math.floor(i / b.width) }));
}

/**
 * The index of the first answered tile the contract would call wrong (a word ≥ p, a tile field that is not a byte,
 * or a path that does not lead from its leaf hash to `root`), or null when every one verifies.
 */
function answeredTileFailing(
  h: Hasher,
  depth: number,
  root: bigint,
  leaves: readonly number[],
  answer: readonly bigint[],
): number | null {
  const stride = answerStride(depth);
  for (let k = 0; k < leaves.length; k++) {
    const w = answer.slice(k * stride, (k + 1) * stride);
    if (w.length !== stride || w.some((v) => v >= FIELD_MODULUS)) return k;
    const [terrain, feature, resource, rivers] = w.slice(0, 4).map(Number) as [
      Terrain,
      Feature,
      Resource,
      number,
    ];
    let leaf: bigint;
    try {
      leaf = leafHash(h, { terrain, feature, resource, rivers }, w[4]!);
    } catch (e) {
      if (e instanceof InputError) return k; // not bytes: the contract's NotATile, a failed answer
      throw e;
    }
    if (rootFromPath(h, leaves[k]!, leaf, w.slice(5)) !== root) return k;
  }
  return null;
}

/** Answered tiles taken as they are (their paths verified, their contents not): kept for a fraud proof. */
function rawTiles(board: Board, leaves: readonly number[], answer: readonly bigint[]): VerifiedTile[] {
  const stride = answerStride(board.depth);
  return leaves.map((leaf, k) => {
    const w = answer.slice(k * stride, (k + 1) * stride);
    const c = leafCoord(board, leaf) ?? { col: -1, row: -1 };
    return {
      terrain: Number(w[0]) as Terrain,
      feature: Number(w[1]) as Feature,
      resource: Number(w[2]) as Resource,
      rivers: Number(w[3]),
      leaf,
      ...c,
      index: c.row * board.width + c.col,
      salt: w[4]!,
      path: w.slice(5),
    };
  });
}

/** Reads this signer's seat in the game and checks the board matches the ruleset. */
async function seatOf(o: GamePlayerOptions): Promise<{ address: string; joined: JoinedGame }> {
  const address = await o.chain.signerAddress();
  const joined = await o.chain.join(o.gameId, address);
  const b = o.ruleset.board;
  const c = joined.config;
  if (c.width !== b.width || c.height !== b.height || c.kind !== (b.kind === 'hex' ? 0 : 1)) {
    throw new InputError(
      'ruleset',
      `game ${o.gameId} is ${c.width}×${c.height}, not ${o.ruleset.name}'s board`,
    );
  }
  return { address, joined };
}

const copySlots = (slots: Slots): (Unit | null)[] => slots.map((u) => (u ? { ...u } : null));
