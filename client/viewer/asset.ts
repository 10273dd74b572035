/**
 * Where the built viewer lives (`npm run build:web`): a page and its bundled module. Node-only and free of
 * the viewer's sources, so the dealer can serve the built files without loading what they were built from.
 */
import { fileURLToPath } from 'node:url';

/** The repository root (this file is client/viewer/asset.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Default output folder of the viewer build. */
export const VIEWER_DIR = fileURLToPath(new URL('../../build/web/viewer/', import.meta.url));

export const VIEWER_FILES = {
  /** The page the dealer serves: no replay in it, the module loaded from `viewer/app.js?v=<hash>`. */
  page: 'index.html',
  /** The bundled, minified module. */
  app: 'app.js',
  /** Repository-relative sources of the build, to tell when it is stale. */
  inputs: 'inputs.json',
} as const;
