/** Fills the viewer's page template (index.html): its replay data and its module script. */
import type { Replay } from './replay.ts';

/**
 * The page with `replay` inlined as JSON (null: the page asks for a file) and `script`, a whole
 * `<script type="module">` element, in place of the template's. Escapes `<` in the data so no string in
 * it can close the script element.
 */
export function fillPage(template: string, replay: Replay | null, script: string): string {
  const slot = '<script type="module">/*MODULE*/</script>';
  if (!template.includes(slot) || !template.includes('"__SHROUD_REPLAY__"'))
    throw new Error('viewer template: the replay or module placeholder is missing');
  const json = JSON.stringify(replay).replaceAll('<', '\\u003c');
  return template.replace('"__SHROUD_REPLAY__"', () => json).replace(slot, () => script);
}

/** A module script element with `js` inline (for self-contained pages). */
export function inlineModule(js: string): string {
  return `<script type="module">${js.replaceAll('</script', '<\\/script')}</script>`;
}
