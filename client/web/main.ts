/** The play page's entry: reads where to connect from the address, then runs the page (page.ts). */
import { ConfigError, pageConfig } from './config.ts';
import { PlayPage } from './page.ts';
import { findUi } from './ui.ts';

const ui = findUi();
try {
  const page = new PlayPage(ui, pageConfig(window.location));
  // For tests and debugging: the page's state, read-only by convention.
  (globalThis as { shroudPlay?: PlayPage }).shroudPlay = page;
  page.start().catch((e: unknown) => {
    ui.errorText.textContent = `The page stopped: ${(e as Error)?.message ?? e}`;
    ui.error.hidden = false;
    console.error(e);
  });
} catch (e) {
  ui.errorText.textContent = e instanceof ConfigError ? e.message : `The page could not start: ${String(e)}`;
  ui.error.hidden = false;
  ui.connect.disabled = true;
}
