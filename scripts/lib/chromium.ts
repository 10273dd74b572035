/**
 * Headless Chromium for the browser tests and the browser benchmark: Debian's package (`apt-get install
 * chromium`), driven by playwright-core, which may not download a browser of its own here.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, no sandbox (CI runs as root), no GPU, and no background traffic of Chromium's own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A test's `skip` option: false when Chromium is installed, else the reason and the fix. */
export const chromiumSkip: false | string = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} not found: apt-get install -y chromium fonts-dejavu-core`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
