import type { Locator, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './server';

// Fills and sends the login form; the caller checks where it led.
export const submitLogin = async (
  page: Page,
  webUrl: string,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
) => {
  await page.goto(`${webUrl}/login`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
};

// Logs in and waits for the inbox, where a successful login lands.
export const logIn = async (
  page: Page,
  webUrl: string,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
) => {
  await submitLogin(page, webUrl, email, password);
  await page.waitForURL('**/tickets');
};

// Resolves once the page's live socket is connected (socket.io's CONNECT reached the page). Ask
// before the page opens the app.
export const socketConnected = (page: Page) =>
  new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (String(payload).startsWith('40')) resolve();
      });
    });
  });

// The app's date field (components/date-field.tsx) takes a date as a person types it: its parts
// (day, month, year, then hour and minute) filled in turn from the digits of "dd/MM/yyyy[ HH:mm]".
export const typeDate = async (scope: Page | Locator, label: string, shown: string) => {
  await scope.getByRole('group', { name: label }).getByRole('spinbutton').first().click();
  const page = 'keyboard' in scope ? scope : scope.page();
  await page.keyboard.type(shown.replace(/\D/g, ''));
};
