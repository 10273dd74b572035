import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertReplay, type Replay } from './replay.ts';

const here = dirname(fileURLToPath(import.meta.url));

interface Mod {
  id: number;
  code: string;
}

/**
 * A deliberately tiny bundler for our own modules: types stripped by Node, each module wrapped in a
 * function scope that returns its exports, relative imports turned into destructuring. It refuses
 * any syntax it does not understand rather than emit a page that breaks at load.
 */
export function bundle(entry: string): string {
  const mods = new Map<string, Mod>();
  const visit = (file: string): Mod => {
    const seen = mods.get(file);
    if (seen) return seen;
    const src = readFileSync(file, 'utf8');
    let code = stripTypeScriptTypes(src, { mode: 'strip' });
    const prelude: string[] = [];
    code = code.replace(
      /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';?/gm,
      (_all, names: string, spec: string) => {
        if (!spec.startsWith('.')) throw new Error(`${file}: only relative imports can be bundled (${spec})`);
        const dep = visit(resolve(dirname(file), spec));
        const list = names
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
          .map((n) => n.replace(/\s+as\s+/, ': '));
        if (list.length > 0) prelude.push(`const { ${list.join(', ')} } = __m${dep.id};`);
        return '';
      },
    );
    if (/^\s*import\s/m.test(code)) throw new Error(`${file}: unsupported import form`);
    const exported: string[] = [];
    code = code.replace(
      /^export\s+((?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*))/gm,
      (_all, decl: string, name: string) => {
        exported.push(name);
        return decl;
      },
    );
    if (/^\s*export\s/m.test(code)) throw new Error(`${file}: unsupported export form`);
    const mod: Mod = {
      id: mods.size,
      code: `const __m${mods.size} = (() => {\n${prelude.join('\n')}\n${code}\nreturn { ${exported.join(', ')} };\n})();`,
    };
    // Dependencies were visited (and numbered) inside the replace above, so they come first.
    mods.set(file, mod);
    return mod;
  };
  visit(resolve(entry));
  return [...mods.values()].map((m) => m.code).join('\n');
}

/**
 * The self-contained viewer page for `replay`: module and data inlined, opens from disk or any server.
 * With `null` the page asks for a replay file instead (what the dealer serves at `/viewer`).
 */
export function viewerHtml(replay: Replay | null): string {
  if (replay) assertReplay(replay);
  const template = readFileSync(join(here, 'index.html'), 'utf8');
  // `<` escaped so no string in the data can close the script element.
  const json = JSON.stringify(replay).replaceAll('<', '\\u003c');
  const js = bundle(join(here, 'app.ts')).replaceAll('</script', '<\\/script');
  return template.replace('"__SHROUD_REPLAY__"', () => json).replace('/*MODULE*/', () => js);
}

/** Writes `dir/index.html`; returns its path. */
export function writeViewer(dir: string, replay: Replay): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.html');
  writeFileSync(file, viewerHtml(replay));
  return file;
}
