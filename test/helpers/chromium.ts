import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/** Debian's `chromium` package; CHROMIUM_PATH names another build. Nothing is downloaded. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialling its update and sync services,
// which on a closed network only costs time.
const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** A headless Chromium with a fresh profile, removed on close. Fails (never skips) without one. */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: the market page is tested in a real browser. ` +
        'Install it with `apt-get install -y chromium` (.ci/run does), or set CHROMIUM_PATH.',
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'predex-chromium-'));
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, `--user-data-dir=${profile}`] });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
