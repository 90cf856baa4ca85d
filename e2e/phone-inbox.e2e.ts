import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { keepView } from './support/gallery';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// The inbox on a 390 × 844 phone, used with one thumb: an agent opens the list, a conversation a
// contact started, accepts it, writes with an emoji, a quick answer, a file and a voice note, looks
// at the contact's details and transfers the conversation, all with taps. Every control tapped is
// at least 44 × 44 CSS px and wholly on the screen; each step is kept for the README's gallery.

const PHONE = { width: 390, height: 844 };
// The smallest target a finger hits reliably (WCAG 2.5.5, Apple's guidelines).
const THUMB = 44;
const CONTACT = '5491155550300';
const CONTACT_NAME = 'Lucía Fernández';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let received: () => Promise<Outbound[]>;
// The controls tapped that a thumb would miss or find off the screen, in this step.
const problems: string[] = [];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const client = apiClient(server.apiUrl);
  const token = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  await client.call(token, 'POST', '/queue', { name: 'Soporte', color: '#1565c0', orderQueue: 1 });
  await client.call(token, 'POST', '/quick-messages', {
    shortcode: 'gracias',
    message: '¡Gracias por su paciencia!',
    geral: true,
  });
  const connection = await client.call<{ id: number }>(token, 'POST', '/whatsapp', {
    name: 'Principal',
    provider: 'simulator',
  });
  await pairSimulator(client, token, connection.id);
  await client.call(token, 'POST', `/simulator/${connection.id}/inbound`, {
    from: CONTACT,
    name: CONTACT_NAME,
    body: 'Hola, ¿tienen el catálogo de este mes?',
  });
  await eventually(
    () =>
      client
        .call<{ tickets: unknown[] }>(token, 'GET', '/tickets?status=pending&showAll=true')
        .then((list) => list.tickets.length),
    (count) => count === 1,
    'the contact’s conversation',
    POLL,
  );
  // The agent's login in the browser ends the admin's API session: the phone's side is read as
  // another admin.
  await client.call(token, 'POST', '/users', {
    name: 'Teléfono',
    email: 'phone-reader@test.local',
    password: 'Phone12345',
    profile: 'admin',
  });
  const reader = await client.login('phone-reader@test.local', 'Phone12345');
  received = () => client.call<Outbound[]>(reader, 'GET', `/simulator/${connection.id}/outbound`);
  context = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await logIn(page, server.webUrl);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

// Taps a control as a thumb would, once it is still on the screen (after any opening transition),
// noting it when it is smaller than a thumb or not wholly on the screen.
const tap = async (target: Locator, name: string) => {
  await target.tap({ trial: true });
  const box = await target.boundingBox();
  if (!box) problems.push(`${name}: not shown`);
  else {
    if (box.width < THUMB - 0.5 || box.height < THUMB - 0.5)
      problems.push(`${name}: ${Math.round(box.width)} × ${Math.round(box.height)} px`);
    if (box.x < 0 || box.y < 0 || box.x + box.width > PHONE.width + 0.5)
      problems.push(`${name}: off the screen's side`);
    if (box.y + box.height > PHONE.height + 0.5) problems.push(`${name}: below the screen`);
  }
  await target.tap();
};

// The page as shown does not scroll sideways.
const sideways = () =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

// The step's view, in test-results/gallery and (GALLERY_DIR) the README's gallery.
const keep = async (step: string) => {
  expect(await sideways(), `${step} scrolls sideways`).toBeLessThanOrEqual(1);
  await keepView(page, `phone-${step}`, `phone-${step}`);
};

const composer = () => page.getByRole('textbox', { name: 'Mensaje' });
const chat = () => page.locator('main');
const onPhone = (match: (rows: Outbound[]) => boolean, what: string) =>
  eventually(received, match, what, { ...POLL, timeoutMs: 15_000 });

describe('the inbox on a phone, with one thumb', { timeout: 120_000 }, () => {
  it('lists the waiting conversation, accepts it and goes back and forth', async () => {
    await tap(page.getByRole('tab', { name: /En espera/ }), 'the waiting tab');
    const row = page
      .getByRole('list', { name: 'En espera' })
      .getByRole('listitem')
      .filter({ hasText: CONTACT_NAME });
    await row.waitFor();
    // Every tab of the list shows whole: none is cut off at the screen's edge.
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main [role="tab"]'))
        .filter((tab) => {
          const box = tab.getBoundingClientRect();
          const list = tab.closest('[role="tablist"]')!.parentElement!.getBoundingClientRect();
          return box.left < list.left - 1 || box.right > list.right + 1;
        })
        .map((tab) => tab.textContent),
    );
    expect(cut).toEqual([]);
    await keep('list');
    // A waiting conversation is accepted from its row, which opens it.
    await tap(row.getByRole('button', { name: 'Aceptar' }), 'accept');
    await chat().getByText('Hola, ¿tienen el catálogo de este mes?').waitFor();
    await composer().waitFor();
    // A phone shows the chat alone, with a way back to the list.
    expect(await page.getByRole('list', { name: 'En espera' }).count()).toBe(0);
    await tap(page.getByRole('button', { name: 'Volver a la lista' }), 'back to the list');
    const served = page
      .getByRole('list', { name: 'Atendiendo' })
      .getByRole('listitem')
      .filter({ hasText: CONTACT_NAME });
    await tap(served.getByRole('button', { name: new RegExp(CONTACT_NAME) }), 'the served row');
    await composer().waitFor();
    await keep('chat');
    expect(problems.splice(0)).toEqual([]);
  });

  it('writes with an emoji from the picker, which fits the screen', async () => {
    await tap(page.getByRole('button', { name: 'Emojis' }), 'the emoji button');
    const picker = page.getByLabel('Selector de emojis');
    const emoji = picker.locator('button.epr-emoji').first();
    await emoji.waitFor();
    const box = (await picker.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await keep('composer-emoji');
    await tap(emoji, 'an emoji');
    // A tap outside closes the picker, as anywhere on a phone.
    await page.locator('.MuiPopover-root .MuiBackdrop-root').tap({ position: { x: 8, y: 8 } });
    await picker.waitFor({ state: 'detached' });
    const withEmoji = await composer().inputValue();
    expect(withEmoji.trim()).not.toBe('');
    await composer().tap();
    await page.keyboard.type(' Con gusto le ayudo.');
    await tap(page.getByRole('button', { name: 'Enviar', exact: true }), 'send');
    // (The admin signs their messages: the phone gets the name above the text.)
    const sent = `${withEmoji} Con gusto le ayudo.`;
    await chat().getByText(sent).waitFor();
    await onPhone(
      (rows) => rows.some((row) => row.body.endsWith(sent)),
      'the text with its emoji on the phone',
    );
    expect(problems.splice(0)).toEqual([]);
  });

  it('inserts a quick answer from its button', async () => {
    await tap(page.getByRole('button', { name: 'Respuestas rápidas' }), 'the quick answers button');
    const answers = page.getByRole('listbox', { name: 'Respuestas rápidas' });
    const answer = answers.getByRole('option', { name: /gracias/ });
    await answer.waitFor();
    const box = (await answers.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await keep('composer-quick-answers');
    await tap(answer, 'a quick answer');
    expect(await composer().inputValue()).toBe('¡Gracias por su paciencia!');
    await tap(page.getByRole('button', { name: 'Enviar', exact: true }), 'send');
    await chat().getByText('¡Gracias por su paciencia!').waitFor();
    expect(problems.splice(0)).toEqual([]);
  });

  it('attaches a file and sends it', async () => {
    const chooser = page.waitForEvent('filechooser');
    await tap(page.getByRole('button', { name: 'Adjuntar archivos' }), 'the attach button');
    await (
      await chooser
    ).setFiles({
      name: 'catalogo-noviembre.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n% catálogo de prueba\n'),
    });
    const attachments = page.getByRole('region', { name: 'Archivos adjuntos' });
    await attachments.getByText('catalogo-noviembre.pdf').waitFor();
    await keep('composer-attachment');
    // What a thumb may want before sending: taking the file away.
    const remove = attachments.getByRole('button', { name: 'Quitar catalogo-noviembre.pdf' });
    await remove.tap({ trial: true });
    const removeBox = (await remove.boundingBox())!;
    expect(Math.min(removeBox.width, removeBox.height)).toBeGreaterThanOrEqual(THUMB - 0.5);
    await tap(page.getByRole('button', { name: 'Enviar', exact: true }), 'send');
    await attachments.waitFor({ state: 'detached' });
    await chat().getByText('catalogo-noviembre.pdf').waitFor();
    await onPhone(
      (rows) => rows.some((row) => row.fileName === 'catalogo-noviembre.pdf'),
      'the file on the phone',
    );
    expect(problems.splice(0)).toEqual([]);
  });

  it('records a voice note, cancels it, records another and sends it', async () => {
    await tap(page.getByRole('button', { name: 'Grabar audio' }), 'the microphone');
    const timer = page.getByRole('timer', { name: 'Tiempo de grabación' });
    await timer.waitFor();
    await tap(page.getByRole('button', { name: 'Cancelar grabación' }), 'cancel the voice note');
    await tap(page.getByRole('button', { name: 'Grabar audio' }), 'the microphone');
    // A second of the fake microphone's tone: long enough to be kept.
    await timer.filter({ hasText: '0:01' }).waitFor();
    await keep('composer-audio');
    await tap(page.getByRole('button', { name: 'Enviar audio' }), 'send the voice note');
    await chat().locator('audio').waitFor();
    await onPhone(
      (rows) => rows.some((row) => row.mediaType === 'audio'),
      'the voice note on the phone',
    );
    // Only the one sent: the cancelled recording went nowhere.
    expect((await received()).filter((row) => row.mediaType === 'audio')).toHaveLength(1);
    expect(problems.splice(0)).toEqual([]);
  });

  it('shows the contact’s details across the screen, and closes them', async () => {
    await tap(page.getByRole('button', { name: 'Datos del contacto' }), 'the contact button');
    const number = page.getByTestId('contact-drawer-number');
    await number.waitFor();
    const drawer = page.locator('.MuiDrawer-paper').filter({ has: number });
    const close = drawer.getByRole('button', { name: 'Cerrar', exact: true });
    await close.tap({ trial: true });
    const box = (await drawer.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.width).toBeGreaterThanOrEqual(PHONE.width - 1);
    await keep('contact-drawer');
    await tap(close, 'close the contact’s details');
    await number.waitFor({ state: 'detached' });
    expect(problems.splice(0)).toEqual([]);
  });

  it('transfers the conversation to a queue from a full-screen dialog', async () => {
    await tap(page.getByRole('button', { name: 'Más acciones' }), 'more actions');
    await tap(page.getByRole('menuitem', { name: 'Transferir' }), 'transfer');
    const dialog = page.getByRole('dialog', { name: 'Transferir ticket' });
    await dialog.waitFor();
    await tap(dialog.getByRole('combobox', { name: 'Cola' }), 'the queue field');
    await tap(page.getByRole('option', { name: 'Soporte' }), 'the queue Soporte');
    const submit = dialog.getByRole('button', { name: 'Transferir' });
    await submit.tap({ trial: true });
    // The whole screen, its confirmation at the bottom where the thumb is.
    const box = (await dialog.boundingBox())!;
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, PHONE.width, PHONE.height]);
    const submitBox = (await submit.boundingBox())!;
    expect(submitBox.y).toBeGreaterThan(PHONE.height * 0.8);
    await keep('transfer');
    await tap(submit, 'confirm the transfer');
    await page.waitForURL('**/tickets');
    // It waits in Soporte now, no longer among those the agent serves.
    await tap(page.getByRole('tab', { name: /En espera/ }), 'the waiting tab');
    await page
      .getByRole('list', { name: 'En espera' })
      .getByRole('listitem')
      .filter({ hasText: CONTACT_NAME })
      .getByText('Soporte')
      .waitFor();
    expect(problems.splice(0)).toEqual([]);
  });
});
