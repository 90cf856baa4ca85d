import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const candidates = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

export const chromiumPath = () => {
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found: install it (apt-get install chromium) or set CHROMIUM_PATH',
    );
  }
  return found;
};

// The system Chromium, headless (Playwright gives each launch a new empty profile), with the
// flags that keep it off the closed network.
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
