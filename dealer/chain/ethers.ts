import type { Abi } from 'abitype';
import {
  type ContractRunner,
  concat,
  JsonRpcProvider,
  keccak256,
  type Log,
  type Provider,
  Transaction,
  toBeHex,
  Wallet,
} from 'ethers';
import {
  type FunctionArgs,
  parseEvent,
  revertName,
  type TypedContract,
  typedContract,
  type WriteName,
  writeOf,
} from '../../client/sdk/typed-contract.ts';
import { MAP_PROOF_REGISTRY_ABI } from '../../core/abi/map-proof-registry.ts';
import { SHROUD_GAME_ABI } from '../../core/abi/shroud-game.ts';
import { VERIFIER_REGISTRY_ABI } from '../../core/abi/verifier-registry.ts';
import { auditEnd, expiredCall, type PhaseDeadline } from '../../core/deadlines.ts';
import { type GamePhaseName, phaseName } from '../../core/game-phases.ts';
import { shippedRuleset, shippedRulesetNames } from '../../core/index.ts';
import { type Groth16Proof, toSolidityProof } from '../../core/mapproof/types.ts';
import { rulesetHash } from '../../core/ruleset/hash.ts';
import { dealerPhase } from './phase.ts';
import {
  type ChainView,
  type CreatedGame,
  type CreatedGameLog,
  type CreateGameParams,
  CreateGameRevert,
  type CreateStatus,
  type DealerCloseCall,
  type DisputeRecord,
  type GameCreator,
  type GameInfo,
  type GamePhase,
  IN_LOGS,
  type PostedRoot,
  type SeatShare,
  type SignedCreate,
  type TurnLog,
  type TxRef,
  type ZoneChallengeRecord,
} from './types.ts';

export interface EthersChainOptions {
  /** JSON-RPC URL; ignored when `provider` is given (tests pass Hardhat's in-process provider). */
  rpcUrl?: string;
  provider?: Provider;
  chainId: number;
  gameContract: string;
  /** MapProofRegistry address; without it the dealer keeps map proofs off-chain (served over HTTP). */
  mapProofRegistry?: string;
  /** Hex secp256k1 key that sends the dealer's transactions (SHROUD_TX_KEY); its address is the dealer. */
  txKey: string;
  /** Blocks behind the head treated as final for the game and turn scans and playCommitment reads. */
  confirmations?: number;
  /** Blocks re-scanned below the cursor on every scan, so a game or turn re-mined after a short re-org is not missed. */
  reorgDepth?: number;
  /** First block worth scanning (the contract's deployment block). */
  startBlock?: number;
  /** Largest block span per eth_getLogs call (public RPCs cap it). */
  logChunk?: number;
}

/** A failed write, described by function and revert/code only: ethers' own messages embed the calldata, which for publishSecrets holds the master secret. */
export class ChainWriteError extends Error {
  override name = 'ChainWriteError';
}

type GameAbi = typeof SHROUD_GAME_ABI;

/** `keccak256(abi.encodePacked(uint32[] leaves))`: packed array elements are padded to 32 bytes. */
export function leavesHash(leaves: readonly number[]): string {
  return keccak256(concat(leaves.map((l) => toBeHex(l, 32))));
}

interface GameView {
  dealer: string;
  phase: GamePhaseName;
  deadline: bigint;
  nPlayers: bigint;
  root: bigint;
  masterCommitment: bigint;
  seed: bigint;
  openMap: boolean;
}

/** JSON-RPC ChainView over the real `ShroudGame` contract; it also creates games (dealer/lobby.ts, `npm run game`). */
export class EthersChain implements ChainView, GameCreator {
  readonly provider: Provider;
  readonly gameContract: string;
  /** This dealer's address (the tx key's), lowercase: games name it as `dealer`. */
  readonly dealer: string;
  readonly #read: TypedContract<GameAbi>;
  readonly #write: TypedContract<GameAbi>;
  readonly #mapProofs: TypedContract<typeof MAP_PROOF_REGISTRY_ABI> | null;
  readonly #confirmations: number;
  readonly #reorgDepth: number;
  readonly #startBlock: number;
  readonly #logChunk: number;
  readonly #rulesets: Map<string, string>;
  readonly #wallet: Wallet;
  /** The tail of this sender's writes: each is handed to the node before the next takes a nonce. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(o: EthersChainOptions) {
    // staticNetwork: no eth_chainId round trip per call, and no retry storm when the node is down.
    // cacheTimeout −1: no 250 ms response cache, so a block number is never older than a state read after it.
    this.provider =
      o.provider ?? new JsonRpcProvider(o.rpcUrl, o.chainId, { staticNetwork: true, cacheTimeout: -1 });
    this.gameContract = o.gameContract;
    const wallet = new Wallet(o.txKey, this.provider);
    this.#wallet = wallet;
    this.dealer = wallet.address.toLowerCase();
    this.#read = typedContract(o.gameContract, SHROUD_GAME_ABI, this.provider);
    this.#write = this.#read.connect(wallet as ContractRunner);
    this.#mapProofs = o.mapProofRegistry
      ? typedContract(o.mapProofRegistry, MAP_PROOF_REGISTRY_ABI, wallet as ContractRunner)
      : null;
    this.#confirmations = o.confirmations ?? 2;
    this.#reorgDepth = o.reorgDepth ?? 6;
    this.#startBlock = o.startBlock ?? 0;
    this.#logChunk = o.logChunk ?? 5000;
    this.#rulesets = new Map(
      shippedRulesetNames.map((name) => [rulesetHash(shippedRuleset(name)).toLowerCase(), name]),
    );
  }

  /** Asks the node (eth_chainId): a static network would echo the configured id and hide a mismatch. */
  async chainId(): Promise<bigint> {
    const p = this.provider as Provider & { send?: (method: string, params: unknown[]) => Promise<string> };
    return p.send ? BigInt(await p.send('eth_chainId', [])) : (await p.getNetwork()).chainId;
  }

  /** The newest block deep enough to treat as final (head − confirmations). */
  async headBlock(): Promise<number> {
    return Math.max(0, (await this.provider.getBlockNumber()) - this.#confirmations);
  }

  /**
   * Games naming this dealer created in [fromBlock − reorgDepth, toBlock]. The overlap re-reads blocks the
   * persisted cursor already passed, so a game whose creation was re-mined in a later block after a
   * re-org of up to `reorgDepth` blocks is still found; repeats are harmless (the store's addGame is idempotent).
   */
  async gamesCreated(fromBlock: number, toBlock: number): Promise<CreatedGame[]> {
    const lo = Math.max(this.#startBlock, fromBlock - this.#reorgDepth);
    const logs = await this.#logs(this.#read.filters.GameCreated(null, this.dealer), lo, toBlock);
    // One entry per game; after a re-org the last log seen is the live one.
    const byId = new Map<bigint, CreatedGame>();
    for (const l of logs) {
      const gameId = BigInt(l.topics[1]!);
      byId.set(gameId, { gameId, block: l.blockNumber });
    }
    return [...byId.values()];
  }

  /**
   * Every `TurnSubmitted` in [fromBlock − reorgDepth, toBlock], all games in one filter (no game or player
   * topic), so the watcher's index costs one eth_getLogs per `logChunk` blocks however many games it tracks.
   * The overlap re-reads a few blocks, as for games: a turn re-mined after a short re-org is still seen.
   */
  async turnsSubmitted(fromBlock: number, toBlock: number): Promise<TurnLog[]> {
    const lo = Math.max(this.#startBlock, fromBlock - this.#reorgDepth);
    const logs = await this.#logs(this.#read.filters.TurnSubmitted(), lo, toBlock);
    return logs.flatMap((l) => {
      const e = parseEvent(this.#read, l);
      if (e?.name !== 'TurnSubmitted') return [];
      const a = e.args;
      return [
        {
          gameId: a.gameId,
          player: a.player.toLowerCase(),
          turn: Number(a.turn),
          commitment: a.commitment,
          block: l.blockNumber,
        },
      ];
    });
  }

  async game(gameId: bigint): Promise<GameInfo | null> {
    const g = await this.#game(gameId);
    if (!g) return null;
    const cfg = await this.#read.getGameConfig(gameId);
    // A ruleset this dealer does not ship: not a game it can deal (the watcher skips it).
    const ruleset = this.#rulesets.get(cfg.rulesetHash.toLowerCase());
    if (!ruleset) return null;
    const players: string[] = [];
    for (let i = 0; i < Number(g.nPlayers); i++) {
      players.push((await this.#read.getSeat(gameId, i)).player.toLowerCase());
    }
    return {
      gameId,
      contract: this.gameContract,
      ruleset,
      players,
      dealer: g.dealer.toLowerCase(),
      sealKey: [cfg.sealKey[0], cfg.sealKey[1]],
    };
  }

  async phase(gameId: bigint): Promise<GamePhase> {
    const g = await this.#game(gameId);
    if (!g) throw new Error(`game ${gameId} is not on-chain`);
    return dealerPhase(gameId, { phase: g.phase, openMap: g.openMap, secretsPublished: g.seed !== 0n });
  }

  /** `C_i` and on-chain flags from getSeat; each sealed share (E, c) from its seat's `SealedReveal` event. */
  async seatShares(gameId: bigint, fromBlock = this.#startBlock): Promise<SeatShare[]> {
    const g = await this.#game(gameId);
    if (!g) throw new Error(`game ${gameId} is not on-chain`);
    const seats = [];
    for (let i = 0; i < Number(g.nPlayers); i++) seats.push(await this.#read.getSeat(gameId, i));
    const logs = await this.#logs(
      this.#read.filters.SealedReveal(gameId),
      Math.max(this.#startBlock, fromBlock),
      await this.provider.getBlockNumber(),
    );
    // One accepted reveal per seat (AlreadyRevealed); after a re-org the last log seen is the live one.
    const bySeat = new Map<number, SeatShare['sealed']>();
    for (const l of logs) {
      const e = parseEvent(this.#read, l);
      if (e?.name !== 'SealedReveal') continue;
      bySeat.set(Number(e.args.seat), { ephemeralY: e.args.ephemeralY, ciphertext: e.args.ciphertext });
    }
    return seats.map((s, i) => {
      const sealed = s.revealed ? bySeat.get(i) : undefined;
      // A seat marked revealed whose event is not visible yet (a lagging log index or node): fail this
      // read so the caller retries.
      if (s.revealed && !sealed)
        throw new Error(`game ${gameId}: seat ${i}'s SealedReveal log not found yet`);
      return {
        player: s.player.toLowerCase(),
        commitment: s.commitment,
        sealed: sealed ?? null,
      };
    });
  }

  async mapRoot(gameId: bigint): Promise<PostedRoot | null> {
    const g = await this.#game(gameId);
    if (!g || g.root === 0n) return null;
    return { root: g.root, masterCommitment: g.masterCommitment };
  }

  /**
   * The `playCommitment(gameId, player, turn)` view: it answers for a seat's latest turn (0 = none); an earlier
   * turn's commitment is only in the `TurnSubmitted` logs (the view reverts `CommitmentInLogs`), which the
   * watcher indexes (`turnsSubmitted`): IN_LOGS then, and no log is read here, so a request for an old turn
   * costs at most one eth_call. Read at the confirmed block (the one the watcher publishes as the head, which
   * callers key their cache of this answer on): a turn re-orged away must not have been trusted. The answer is
   * not final (a combat answer replaces the stored value), unlike a `TurnSubmitted` log.
   */
  async playCommitment(
    gameId: bigint,
    player: string,
    turn: number,
  ): Promise<bigint | null | typeof IN_LOGS> {
    // headBlock is the latest block less the confirmations (the latest itself with none).
    const blockTag = await this.headBlock();
    try {
      const v = await this.#read.playCommitment(gameId, player, turn, { blockTag });
      return v === 0n ? null : v;
    } catch (e) {
      if (revertName(this.#read, e) === 'CommitmentInLogs') return IN_LOGS;
      throw e;
    }
  }

  async secretsPublished(gameId: bigint, confirmed = false): Promise<boolean> {
    const g = await this.#game(gameId, confirmed ? await this.headBlock() : 'latest');
    return !!g && g.seed !== 0n && !g.openMap;
  }

  /**
   * `getDispute`, and while it is unanswered the opened leaves from its `DisputeOpened` event (matched by
   * seat, turn and the stored leaves hash). Read at the head, not the confirmed block: a dispute is urgent,
   * and an answer to one that a re-org removed merely reverts.
   */
  async dispute(gameId: bigint, fromBlock = this.#startBlock): Promise<DisputeRecord | null> {
    const d = await this.#read.getDispute(gameId);
    if (Number(d.nLeaves) === 0) return null;
    const g = await this.#game(gameId);
    if (!g) return null;
    const seat = Number(d.seat);
    const turn = Number(d.turn);
    const player = (await this.#read.getSeat(gameId, seat)).player.toLowerCase();
    let leaves: number[] | null = null;
    if (!d.answered) {
      const want = d.leavesHash.toLowerCase();
      const from = Math.max(this.#startBlock, fromBlock);
      const filter = this.#read.filters.DisputeOpened(gameId);
      // Newest first: the stored dispute opened within its deadline, so the first chunk back from the head
      // almost always holds it (no scan from the game's creation after a restart).
      for (let hi = await this.provider.getBlockNumber(); hi >= from && !leaves; hi -= this.#logChunk) {
        const logs = await this.#read.queryFilter(filter, Math.max(from, hi - this.#logChunk + 1), hi);
        for (const l of logs.reverse()) {
          const e = parseEvent(this.#read, l);
          if (e?.name !== 'DisputeOpened') continue;
          const ls = e.args.leaves.map(Number);
          if (Number(e.args.seat) === seat && Number(e.args.turn) === turn && leavesHash(ls) === want) {
            leaves = ls;
            break;
          }
        }
      }
      // Stored but its event not visible yet (a lagging log index): fail so the watcher retries.
      if (!leaves) throw new Error(`game ${gameId}: the DisputeOpened log of seat ${seat} not found yet`);
    }
    return {
      seat,
      player,
      turn,
      answered: d.answered,
      receipted: d.receipted,
      leaves,
      deadline: Number(g.deadline),
    };
  }

  /** Reads first: a root that landed (receipt lost) is not sent twice; a different root is an error. */
  async postRoot(gameId: bigint, root: PostedRoot, zoneRoots: readonly bigint[]): Promise<TxRef> {
    const posted = await this.mapRoot(gameId);
    if (posted) {
      if (posted.root === root.root && posted.masterCommitment === root.masterCommitment) {
        return { hash: 'already-posted' };
      }
      throw new ChainWriteError(`postRoot: game ${gameId} already holds a different root`);
    }
    return this.#send(this.#write, 'postRoot', [gameId, root.root, root.masterCommitment, zoneRoots]);
  }

  /** Reads first: nothing is sent unless the game is in Dispute with its dispute unanswered. */
  async answerDispute(gameId: bigint, answer: readonly bigint[], receipt: string): Promise<TxRef | null> {
    const g = await this.#game(gameId);
    if (g?.phase !== 'Dispute') return null;
    const d = await this.#read.getDispute(gameId);
    if (Number(d.nLeaves) === 0 || d.answered) return null;
    return this.#send(this.#write, 'answerDispute', [gameId, answer, receipt]);
  }

  /** Reads first: secrets already published (a retry after a lost receipt) are not sent again. */
  async publishSecrets(gameId: bigint, masterSecret: bigint, shares: readonly bigint[]): Promise<TxRef> {
    if (await this.secretsPublished(gameId)) return { hash: 'already-published' };
    return this.#send(this.#write, 'publishSecrets', [gameId, masterSecret, shares]);
  }

  async zoneChallenges(fromBlock: number): Promise<{ challenges: ZoneChallengeRecord[]; toBlock: number }> {
    const toBlock = await this.provider.getBlockNumber();
    const lo = Math.max(this.#startBlock, fromBlock - this.#reorgDepth);
    const logs = lo <= toBlock ? await this.#logs(this.#read.filters.ZoneChallenged(), lo, toBlock) : [];
    const challenges: ZoneChallengeRecord[] = [];
    for (const l of logs) {
      const e = parseEvent(this.#read, l);
      if (e?.name !== 'ZoneChallenged') continue;
      const { gameId, seat, zone, leaves } = e.args;
      challenges.push({ gameId, seat: Number(seat), zone: Number(zone), leaves: [...leaves] });
    }
    return { challenges, toBlock };
  }

  async zoneChallengeClosed(gameId: bigint, seat: number): Promise<boolean> {
    const c = await this.#read.getZoneChallenge(gameId, seat, { blockTag: await this.headBlock() });
    return BigInt(c.challenger) !== 0n && !c.open;
  }

  async answerZoneChallenge(
    gameId: bigint,
    seat: number,
    challengerLeaves: readonly bigint[],
    dealerLeaves: readonly bigint[],
  ): Promise<TxRef | null> {
    const g = await this.#game(gameId);
    if (g?.phase !== 'Audit' || !(await this.#read.getZoneChallenge(gameId, seat)).open) return null;
    return this.#send(this.#write, 'answerZoneChallenge', [gameId, seat, challengerLeaves, dealerLeaves]);
  }

  async chainTime(): Promise<number> {
    const block = await this.provider.getBlock('latest');
    if (!block) throw new Error('no latest block');
    return block.timestamp;
  }

  /**
   * Read at the head: a closing call is sent against the latest state and time; `confirmed` reads the game at the
   * confirmed block (whether a closing call is final). An audit past its deadline with a zone challenge unanswered
   * closes only after the answer window (`auditEnd`).
   */
  async closingState(gameId: bigint, confirmed = false): Promise<PhaseDeadline> {
    const now = await this.chainTime();
    const g = await this.#game(gameId, confirmed ? await this.headBlock() : 'latest');
    if (!g) throw new Error(`game ${gameId} is not on-chain`);
    let deadline = Number(g.deadline);
    if (g.phase === 'Audit' && now > deadline) {
      const open = Number((await this.#read.getAudit(gameId)).open);
      const { durations } = await this.#read.getGameConfig(gameId);
      deadline = auditEnd(deadline, open, Number(durations.disputeSeconds));
    }
    return { phase: g.phase, deadline, now };
  }

  /** Reads first: nothing is sent unless `expiredCall` gives `call` now (a retry, or someone else closed it). */
  async close(gameId: bigint, call: DealerCloseCall): Promise<TxRef | null> {
    if (expiredCall(await this.closingState(gameId)) !== call) return null;
    return this.#send(this.#write, call, [gameId]);
  }

  async credit(): Promise<bigint> {
    return this.#read.credit(this.dealer);
  }

  /** Reads first: no transaction for a zero credit (it would revert `NothingToWithdraw`). */
  async withdraw(): Promise<TxRef | null> {
    if ((await this.credit()) === 0n) return null;
    return this.#send(this.#write, 'withdraw', []);
  }

  async submitMapProof(
    gameId: bigint,
    seedHash: bigint,
    zoneRoots: readonly bigint[],
    proof: Groth16Proof,
  ): Promise<TxRef | null> {
    if (!this.#mapProofs) return null;
    if (await this.#mapProofs.isVerified(gameId)) return { hash: 'already-verified' };
    return this.#send(this.#mapProofs, 'submitMapProof', [
      gameId,
      seedHash,
      zoneRoots,
      toSolidityProof(proof.proof),
    ]);
  }

  /**
   * Signs createGame with the next nonce (the gas estimate surfaces a revert as CreateGameRevert, nothing
   * signed), awaits `persist`, then broadcasts: a crash after `persist` leaves a transaction that
   * `createStatus` finds or `rebroadcast` sends again, never a second game.
   */
  async submitCreateGame(
    p: CreateGameParams,
    persist: (tx: SignedCreate) => Promise<void>,
  ): Promise<SignedCreate> {
    const { data } = await this.#read.createGame.populateTransaction({
      players: p.players,
      dealer: this.#wallet.address,
      sealKey: [p.sealKey[0], p.sealKey[1]],
      rulesetHash: p.rulesetHash,
      durations: p.durations,
      board: p.board,
      stake: p.stake,
      disputeDeposit: p.disputeDeposit,
    });
    return this.#serial(async () => {
      const fromBlock = await this.provider.getBlockNumber();
      let populated: Awaited<ReturnType<Wallet['populateTransaction']>>;
      try {
        populated = await this.#wallet.populateTransaction({ to: this.gameContract, data, value: p.bond });
      } catch (e) {
        const name = revertName(this.#read, e);
        const code = (e as { code?: unknown }).code;
        if (name || code === 'CALL_EXCEPTION') throw new CreateGameRevert(name ?? 'reverted');
        throw new ChainWriteError(`createGame: ${typeof code === 'string' ? code : 'failed'}`);
      }
      const raw = await this.#wallet.signTransaction(populated);
      const tx: SignedCreate = {
        hash: Transaction.from(raw).hash!,
        raw,
        nonce: Number(populated.nonce),
        fromBlock,
      };
      await persist(tx);
      await this.#broadcast(tx);
      return tx;
    });
  }

  async createStatus(
    tx: SignedCreate,
    match: (g: CreatedGameLog) => boolean | Promise<boolean>,
  ): Promise<CreateStatus> {
    const receipt = await this.provider.getTransactionReceipt(tx.hash);
    if (receipt) {
      if (receipt.status !== 1) return { state: 'reverted', reason: 'reverted' };
      for (const l of receipt.logs) {
        const g = this.#createdLog(l as Log);
        if (g) return { state: 'created', gameId: g.gameId, block: g.block, hash: tx.hash };
      }
      return { state: 'reverted', reason: 'no GameCreated log' };
    }
    if (await this.provider.getTransaction(tx.hash)) return { state: 'pending' }; // in the node's pool
    const used = await this.provider.getTransactionCount(this.#wallet.address, 'latest');
    if (used <= tx.nonce) return { state: 'pending' };
    // Its nonce went to another transaction: a replacement of it (a re-signed copy) may have created the game.
    const lo = Math.max(this.#startBlock, tx.fromBlock - this.#reorgDepth);
    const head = await this.provider.getBlockNumber();
    for (const l of await this.#logs(this.#read.filters.GameCreated(null, this.dealer), lo, head)) {
      const g = this.#createdLog(l);
      if (g && (await match(g))) return { state: 'created', gameId: g.gameId, block: g.block, hash: g.hash };
    }
    return { state: 'dropped' };
  }

  async registeredStartAreas(rulesetHash: string): Promise<bigint | null> {
    const registry = typedContract(String(await this.#read.registry()), VERIFIER_REGISTRY_ABI, this.provider);
    if (!(await registry.getRuleset(rulesetHash)).registered) return null;
    return BigInt(await registry.startAreasOf(rulesetHash));
  }

  async rebroadcast(tx: SignedCreate): Promise<void> {
    await this.#serial(() => this.#broadcast(tx));
  }

  /** Sends a signed transaction; a node that already has it, or has mined its nonce, is not an error here. */
  async #broadcast(tx: SignedCreate): Promise<void> {
    try {
      await this.provider.broadcastTransaction(tx.raw);
    } catch (e) {
      const err = e as { code?: unknown; message?: unknown };
      const text = String(err.message ?? '');
      if (err.code === 'NONCE_EXPIRED' || /already known|known transaction|nonce too low/i.test(text)) return;
      throw new ChainWriteError(
        `createGame: ${typeof err.code === 'string' ? err.code : 'broadcast failed'}`,
      );
    }
  }

  #createdLog(l: Log): CreatedGameLog | null {
    if (l.address.toLowerCase() !== this.gameContract.toLowerCase()) return null;
    const e = parseEvent(this.#read, l);
    if (e?.name !== 'GameCreated') return null;
    const a = e.args;
    return {
      gameId: a.gameId,
      block: l.blockNumber,
      hash: l.transactionHash,
      players: a.players.map((x) => x.toLowerCase()),
      rulesetHash: a.rulesetHash.toLowerCase(),
      stake: a.stake,
      bond: a.bond,
    };
  }

  /** Runs `fn` once every earlier write of this sender was handed to the node (one nonce at a time). */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => {});
    return run;
  }

  async #game(gameId: bigint, blockTag: number | 'latest' = 'latest'): Promise<GameView | null> {
    try {
      const r = await this.#read.getGame(gameId, { blockTag });
      return {
        dealer: r.dealer,
        phase: phaseName(r.phase),
        deadline: r.deadline,
        nPlayers: r.nPlayers,
        root: r.root,
        masterCommitment: r.masterCommitment,
        seed: r.seed,
        openMap: r.openMap,
      };
    } catch (e) {
      if (revertName(this.#read, e) === 'UnknownGame') return null;
      throw e;
    }
  }

  async #logs(
    filter: Parameters<TypedContract<GameAbi>['queryFilter']>[0],
    from: number,
    to: number,
  ): Promise<Log[]> {
    const out: Log[] = [];
    for (let lo = from; lo <= to; lo += this.#logChunk) {
      const hi = Math.min(to, lo + this.#logChunk - 1);
      out.push(...((await this.#read.queryFilter(filter, lo, hi)) as Log[]));
    }
    return out;
  }

  /**
   * Sends `fn` on `to`, waits for one confirmation, and rethrows failures without ethers' calldata-bearing
   * message (a revert named by `to`'s errors, or the game's: the registry's calls into the game bubble up).
   */
  async #send<A extends Abi, N extends WriteName<A>>(
    to: TypedContract<A>,
    fn: N,
    args: FunctionArgs<A, N>,
  ): Promise<TxRef> {
    let receipt: { status: number | null; hash: string } | null;
    try {
      const tx = await this.#serial(() => writeOf(to, fn)(...args));
      receipt = await tx.wait(1);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const reason = revertName(to, e) ?? revertName(this.#read, e);
      throw new ChainWriteError(`${fn}: ${reason ?? (typeof code === 'string' ? code : 'failed')}`);
    }
    if (receipt?.status !== 1) throw new ChainWriteError(`${fn}: reverted`);
    return { hash: receipt.hash };
  }
}
