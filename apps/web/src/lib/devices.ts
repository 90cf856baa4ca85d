// A session's device as people name it ("Chrome on Android"), from the browser's user agent. The
// order matters: Edge, Opera and Samsung Internet also call themselves Chrome, and Chrome Safari.
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(e|A|iOS)?\//],
  ['Opera', /\bOPR\/|\bOpera\b/],
  ['Samsung Internet', /\bSamsungBrowser\//],
  ['Firefox', /\bFirefox\/|\bFxiOS\//],
  ['Chromium', /\bChromium\//],
  ['Chrome', /\bChrome\/|\bCriOS\//],
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
];
const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['Android', /\bAndroid\b/],
  ['iPhone', /\biPhone\b/],
  ['iPad', /\biPad\b/],
  ['Windows', /\bWindows\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMacintosh\b|\bMac OS X\b/],
  ['Linux', /\bLinux\b/],
];

const firstMatch = (list: [string, RegExp][], userAgent: string) =>
  list.find(([, pattern]) => pattern.test(userAgent))?.[0];

// The browser and system a user agent names; null when it names no browser and system we know (the
// caller shows it as it came, shortened).
export const describeDevice = (userAgent: string) => {
  const browser = firstMatch(BROWSERS, userAgent);
  const system = firstMatch(SYSTEMS, userAgent);
  return browser && system ? { browser, system } : null;
};
