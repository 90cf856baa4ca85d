import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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
// flags that keep it off the closed network. Every context (and browser.newPage()'s own) is
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
