/**
 * A human at a terminal as a `TurnPlanner`: on each of the seat's turns it shows the fogged map, the units
 * and the legal options, then reads commands until `end` or `pass` (or an attack, after whose combat it asks
 * again). Invalid commands get a one-line reason and the prompt again. The tiles a turn reveals are chosen
 * as the bot chooses them; everything that is not a decision stays with `BotPlayer.act()`.
 */
import type { Coord } from '../../core/geometry.ts';
import { revealFor } from '../bot.ts';
import {
  type SpawnContext,
  seededRandom,
  type TurnContext,
  type TurnDecision,
  type TurnPlanner,
} from '../planner.ts';
import { type Command, parseCommand } from './commands.ts';
import type { TerminalIO } from './io.ts';
import { checkMove, checkSpawn, pickAttack } from './options.ts';
import {
  legend,
  type MapView,
  renderMap,
  renderOptions,
  renderUnits,
  SPAWN_HELP,
  TURN_HELP,
} from './render.ts';

/** The player typed `quit` or closed the input. */
export class QuitRequested extends Error {
  override name = 'QuitRequested';
}

const coord = (c: Coord) => `${c.col},${c.row}`;

export class TerminalPlanner implements TurnPlanner {
  readonly #io: TerminalIO;
  readonly #seed: string;
  /** The moves planned so far on chain turn `turn` (kept across an attack's combat). */
  #draft: { turn: number; moves: (Coord | null)[] } = { turn: -1, moves: [] };

  /** `seed` makes the default spawn placement and the revealed-tile choice reproducible. */
  constructor(io: TerminalIO, seed: string) {
    this.#io = io;
    this.#seed = seed;
  }

  /** The next parsed command; a bad line is answered with its reason and asked again. */
  async #command(prompt: string): Promise<Command> {
    for (;;) {
      const line = await this.#io.ask(prompt);
      if (line === null) throw new QuitRequested('end of input');
      const parsed = parseCommand(line);
      if (parsed === null) continue;
      if (parsed.ok) return parsed.command;
      this.#io.print(`error: ${parsed.error}`);
    }
  }

  async spawn(ctx: SpawnContext): Promise<Coord[]> {
    const r = ctx.ruleset;
    const positions = ctx.positions(seededRandom(`${this.#seed}:spawn:${ctx.seat}`));
    const area = new Set<number>();
    for (let row = ctx.area.row0; row <= ctx.area.row1; row++)
      for (let col = ctx.area.col0; col <= ctx.area.col1; col++) area.add(row * r.board.width + col);
    const show = () => {
      const n = r.board.width * r.board.height;
      const view: MapView = {
        kind: r.board.kind,
        width: r.board.width,
        height: r.board.height,
        fog: new Array(n).fill(0),
        terrain: new Array(n).fill(-1),
        lastSeen: [],
        ownUnits: positions.map((p, slot) => {
          const type = r.unitTypes.findIndex((t) => t.name === r.spawn[slot]);
          return { slot, type, hp: r.unitTypes[type]!.hp, ...p };
        }),
      };
      this.#io.print(`\n— seat ${ctx.seat}: place your units in your start area (+) —`);
      this.#io.print(renderMap(view, { marked: area }));
      this.#io.print(legend(r.board.kind));
      this.#io.print(renderUnits(view.ownUnits, r));
      this.#io.print('spawn <unit> <col> <row> to move one, end to spawn (help for commands)');
    };
    show();
    for (;;) {
      const c = await this.#command(`seat ${ctx.seat} spawn> `);
      switch (c.kind) {
        case 'spawn': {
          const err = checkSpawn(ctx.area, positions, c.slot, c.at);
          if (err) this.#io.print(`error: ${err}`);
          else {
            positions[c.slot] = c.at;
            this.#io.print(`unit ${c.slot} ${r.spawn[c.slot]} placed at ${coord(c.at)}`);
          }
          break;
        }
        case 'end':
        case 'pass':
          this.#io.print(
            `spawning: ${positions.map((p, i) => `unit ${i} at ${coord(p)}`).join(', ')} (proving…)`,
          );
          return positions;
        case 'map':
          show();
          break;
        case 'help':
          this.#io.print(SPAWN_HELP);
          break;
        case 'quit':
          throw new QuitRequested('quit');
        default:
          this.#io.print(
            `error: ${c.kind} is for your turns; now place your units (spawn <unit> <col> <row>, end)`,
          );
      }
    }
  }

  async turn(ctx: TurnContext): Promise<TurnDecision> {
    const { obs, ruleset: r } = ctx;
    if (this.#draft.turn !== ctx.turn) this.#draft = { turn: ctx.turn, moves: obs.ownUnits.map(() => null) };
    const moves = this.#draft.moves;
    const show = () => {
      this.#io.print(`\n— turn ${ctx.turn}: your move (seat ${ctx.seat}) —`);
      this.#io.print(renderMap(obs));
      this.#io.print(legend(r.board.kind));
      this.#io.print(renderUnits(obs.ownUnits, r, moves));
      this.#io.print(renderOptions(obs, r, ctx.attacked));
      this.#io.print('type help for the commands');
    };
    show();
    for (;;) {
      const c = await this.#command(`seat ${ctx.seat} turn ${ctx.turn}> `);
      switch (c.kind) {
        case 'move': {
          const err = checkMove(obs, r, c.slot, c.to);
          if (err) this.#io.print(`error: ${err}`);
          else {
            const u = obs.ownUnits[c.slot]!;
            const stays = u.col === c.to.col && u.row === c.to.row;
            moves[c.slot] = stays ? null : c.to;
            this.#io.print(
              stays
                ? `unit ${c.slot} stays at ${coord(u)}`
                : `unit ${c.slot} ${r.unitTypes[u.type]!.name} → ${coord(c.to)} (end plays the turn)`,
            );
          }
          break;
        }
        case 'attack': {
          const a = pickAttack(obs, r, ctx.attacked, c.zone, c.target);
          if ('error' in a) {
            this.#io.print(`error: ${a.error}`);
            break;
          }
          this.#io.print(`unit ${a.slot} attacks ${coord(a.target)} in zone ${c.zone} (proving…)`);
          return { kind: 'attack', ...a };
        }
        case 'end':
        case 'pass': {
          const planned = c.kind === 'end' ? [...moves] : moves.map(() => null);
          const n = planned.filter(Boolean).length;
          this.#io.print(`playing turn ${ctx.turn}: ${n} move${n === 1 ? '' : 's'} (proving…)`);
          return { kind: 'turn', moves: planned, reveal: revealFor(obs, r, planned, this.#seed) };
        }
        case 'map':
          show();
          break;
        case 'help':
          this.#io.print(TURN_HELP);
          break;
        case 'quit':
          throw new QuitRequested('quit');
        case 'spawn':
          this.#io.print('error: your units are placed already (move <unit> <col> <row> moves one)');
          break;
      }
    }
  }
}
