/**
 * The viewer's browser module: draws one player's fogged map from the replay embedded in the page
 * (`<script type="application/json" id="replay">`), or, when the page carries none (the dealer's
 * `/viewer`), from a replay file the player loads: the dealer never sees a player's view.
 * Inlined into index.html by `write.ts`.
 */
import { renderSvg } from '../render/svg.ts';
import { assertReplay, type Replay } from './replay.ts';

const slider = document.getElementById('turn') as HTMLInputElement;
const label = document.getElementById('turn-label')!;
const map = document.getElementById('map')!;
const controls = document.getElementById('controls')!;

function start(replay: Replay): void {
  assertReplay(replay);
  // Tile size so the map fits about 900 px wide.
  const size = Math.max(6, Math.min(24, Math.floor(900 / (replay.board.width * 1.8))));
  slider.min = '0';
  slider.max = String(replay.turns.length - 1);
  slider.value = slider.max;

  // The omniscient view exists only when the post-audit secrets were published: never during play.
  let omniscient: HTMLInputElement | null = null;
  if (replay.omniscient) {
    const box = document.createElement('label');
    omniscient = document.createElement('input');
    omniscient.type = 'checkbox';
    omniscient.id = 'omniscient';
    box.append(omniscient, ' omniscient (post-audit map)');
    controls.append(box);
    omniscient.addEventListener('change', draw);
  }

  function draw(): void {
    const frame = replay.turns[Number(slider.value)]!;
    const all = omniscient?.checked && replay.omniscient;
    map.innerHTML = all
      ? renderSvg(replay.board, replay.omniscient!.tiles, { size })
      : renderSvg(replay.board, frame.tiles, { view: frame.view, markedZones: frame.markedZones, size });
    const seat = replay.seat === undefined ? '' : ` — seat ${replay.seat}`;
    label.textContent = `${replay.ruleset.name}${seat} — turn ${frame.turn}${all ? ' (omniscient)' : ''}`;
    map.dataset.turn = String(frame.turn);
  }

  slider.addEventListener('input', draw);
  draw();
}

const embedded = JSON.parse(document.getElementById('replay')!.textContent!) as Replay | null;
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
      start(JSON.parse(await f.text()) as Replay);
      file.remove();
    } catch (e) {
      label.textContent = `not a replay: ${(e as Error).message}`;
    }
  });
}
