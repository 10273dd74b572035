/** The self-contained per-player viewer page: the built module and the replay inlined, opens from disk. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, VIEWER_DIR } from './asset.ts';
import { viewerModule } from './build.ts';
import { fillPage, inlineModule } from './page.ts';
import { assertReplay, type Replay } from './replay.ts';

/** The page for `replay`; the viewer is (re)built in `buildDir` first when missing or stale. */
export async function viewerHtml(replay: Replay, buildDir: string = VIEWER_DIR): Promise<string> {
  assertReplay(replay);
  const js = await viewerModule(buildDir);
  const template = readFileSync(join(REPO_ROOT, 'client', 'viewer', 'index.html'), 'utf8');
  return fillPage(template, replay, inlineModule(js));
}

/** Writes `dir/index.html`; returns its path. */
export async function writeViewer(
  dir: string,
  replay: Replay,
  buildDir: string = VIEWER_DIR,
): Promise<string> {
  const html = await viewerHtml(replay, buildDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.html');
  writeFileSync(file, html);
  return file;
}
