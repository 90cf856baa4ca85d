import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

// Where a Chromium or Chrome usually is, on Linux distributions, macOS and Windows.
const systemBrowsers = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

// The browser the flows drive, looked for as Playwright users expect: CHROMIUM_PATH when set (and
// then only it), the Chromium Playwright downloaded (`npx playwright install chromium`), then the
// system's.
export const chromiumPath = () => {
  const named = process.env.CHROMIUM_PATH;
  if (named) {
    if (existsSync(named)) return named;
    throw new Error(
      `CHROMIUM_PATH is ${named}, where there is no file; or run \`npm run test:unit\` for every test but the browser flows`,
    );
  }
  let playwrights: string | undefined;
  try {
    playwrights = chromium.executablePath();
  } catch {
    // playwright-core knows no browser for this platform.
  }
  const tried = [playwrights, ...systemBrowsers].filter((p): p is string => !!p);
  const found = tried.find((p) => existsSync(p));
  if (found) return found;
  throw new Error(
    [
      'No Chromium for the browser tests. Looked in:',
      ...tried.map((p) => `  ${p}`),
      'Install one (apt-get install chromium, or npx playwright install chromium) or set',
      'CHROMIUM_PATH; or run `npm run test:unit` for every test but the browser flows.',
    ].join('\n'),
  );
};

// Content-Security-Policy violations seen in any page of any browser this file launched, until taken
// (support/csp-guard.ts fails the running test with them).
const cspViolations: string[] = [];
export const takeCspViolations = () => cspViolations.splice(0);

// Only our servers' pages count: a third-party frame (a YouTube player) answers for its own policy.
const ours = (url: string) => /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(url);

const watchCsp = async (context: BrowserContext) => {
  await context.exposeBinding('__atendiCspViolation', ({ frame }, text: string) => {
    if (ours(frame.url())) cspViolations.push(text);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __atendiCspViolation?: (text: string) => void })
        .__atendiCspViolation;
      report?.(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'} in ${event.documentURI}`,
      );
    });
  });
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy') && ours(message.page()?.url() ?? ''))
      cspViolations.push(`${message.page()?.url()}: ${message.text()}`);
  });
};

// The system Chromium, headless (Playwright gives each launch a new empty profile), with the
// flags that keep it off the closed network, and a fake microphone that needs no permission prompt
// (the composer's voice notes record its tone). Every context (and browser.newPage()'s own) is
// watched for CSP violations.
export const launchBrowser = async (): Promise<Browser> => {
  const browser = await chromium.launch({
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
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  // browser.newPage() creates its context through this method too.
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  return browser;
};
