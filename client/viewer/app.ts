/**
 * The viewer's browser module: draws one player's fogged map, turn by turn, from the replay embedded in
 * the page (`<script type="application/json" id="replay">`), or, when the page carries none (the
 * dealer's `/viewer`), from a replay file the player loads: the dealer never sees a player's view.
 * Bundled by esbuild (build.ts); the map, its marks and the legend come from client/render.
 */
import { renderSvg } from '../render/svg.ts';
import { legendHtml } from './legend.ts';
import { frameOverlay, sightedZones } from './overlay.ts';
import { assertReplay, type Replay } from './replay.ts';

const slider = document.getElementById('turn') as HTMLInputElement;
const label = document.getElementById('turn-label')!;
const map = document.getElementById('map')!;
const controls = document.getElementById('controls')!;
const legend = document.getElementById('legend')!;
const log = document.getElementById('log')!;

/** The turn log up to the shown turn, newest first, the shown turn highlighted; a click shows that turn. */
function drawLog(replay: Replay, shown: number, show: (k: number) => void): void {
  log.replaceChildren(
    ...replay.turns
      .slice(0, shown + 1)
      .map((f, k) => {
        const li = document.createElement('li');
        li.dataset.turn = String(f.turn);
        li.className = k === shown ? 'current' : '';
        li.append(`turn ${f.turn}`);
        const lines = document.createElement('ul');
        lines.append(
          ...f.log.map((text) => {
            const line = document.createElement('li');
            line.textContent = text;
            return line;
          }),
        );
        li.append(lines);
        li.addEventListener('click', () => show(k));
        return li;
      })
      .reverse(),
  );
}

function start(replay: unknown): void {
  assertReplay(replay);
  const r = replay;
  // Tile size so the map fits about 900 px wide.
  const size = Math.max(6, Math.min(24, Math.floor(900 / (r.board.width * 1.8))));
  slider.min = '0';
  slider.max = String(r.turns.length - 1);
  slider.value = slider.max;
  legend.innerHTML = legendHtml(r.ruleset);

  // The omniscient view exists only when the post-audit secrets were published: never during play.
  let omniscient: HTMLInputElement | null = null;
  if (r.omniscient) {
    const box = document.createElement('label');
    omniscient = document.createElement('input');
    omniscient.type = 'checkbox';
    omniscient.id = 'omniscient';
    box.append(omniscient, ' omniscient (post-audit map)');
    controls.append(box);
    omniscient.addEventListener('change', draw);
  }

  function show(k: number): void {
    slider.value = String(Math.max(0, Math.min(r.turns.length - 1, k)));
    draw();
  }

  function draw(): void {
    const k = Number(slider.value);
    const frame = r.turns[k]!;
    const all = omniscient?.checked && r.omniscient;
    const overlay = frameOverlay(r, frame, size);
    const markedZones = [...sightedZones(r, frame).keys()];
    map.innerHTML = all
      ? renderSvg(r.board, r.omniscient!.tiles, { size, markedZones, overlay })
      : renderSvg(r.board, frame.tiles, { view: frame.view, markedZones, size, overlay });
    const seat = r.seat === undefined ? '' : ` — seat ${r.seat}`;
    label.textContent = `${r.ruleset.name}${seat} — turn ${frame.turn}${all ? ' (omniscient)' : ''}`;
    map.dataset.turn = String(frame.turn);
    drawLog(r, k, show);
  }

  slider.addEventListener('input', draw);
  // ← → step through turns, Home/End jump, wherever the focus is (the slider handles its own keys).
  document.addEventListener('keydown', (e) => {
    if (e.target === slider || e.target instanceof HTMLInputElement) return;
    const k = Number(slider.value);
    const keys: Record<string, number> = {
      ArrowLeft: k - 1,
      ArrowRight: k + 1,
      Home: 0,
      End: r.turns.length - 1,
    };
    const to = keys[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  draw();
}

const embedded = JSON.parse(document.getElementById('replay')!.textContent!) as unknown;
if (embedded) start(embedded);
else {
  const file = document.createElement('input');
  file.type = 'file';
  file.accept = 'application/json';
  file.id = 'replay-file';
  label.textContent = 'load a replay file written by your client';
  controls.append(file);
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    try {
      start(JSON.parse(await f.text()));
      file.remove();
    } catch (e) {
      label.textContent = `not a replay: ${(e as Error).message}`;
    }
  });
}
