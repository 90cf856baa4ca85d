import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { logIn as logInAs } from './support/pages';
import { startServer, type RunningServer } from './support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const logIn = (page: Page) => logInAs(page, server.webUrl);

const openFromDrawer = async (page: Page, label: string, heading: string) => {
  await page.getByTestId('drawer').getByText(label, { exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

const addOption = async (dialog: Locator, title: string, message: string) => {
  await dialog.getByRole('button', { name: 'Agregar opción' }).click();
  const form = dialog.getByRole('form', { name: 'Nueva opción' });
  await form.getByRole('textbox', { name: 'Título' }).fill(title);
  await form.getByRole('textbox', { name: 'Mensaje' }).fill(message);
  await form.getByRole('button', { name: 'Guardar opción' }).click();
  await form.waitFor({ state: 'detached' });
  await dialog.getByTestId('queue-option').filter({ hasText: title }).waitFor();
};

// The positions and titles of the top-level options, in the order shown.
const optionsShown = async (dialog: Locator) =>
  (await dialog.getByTestId('queue-option').allInnerTexts()).map((text) =>
    text.split('\n').filter(Boolean).slice(0, 2).join(' '),
  );

describe('queues and users', () => {
  it('creates a queue with chatbot options, then a user assigned to it', async () => {
    const page = await browser.newPage();
    await logIn(page);

    await openFromDrawer(page, 'Colas y chatbot', 'Colas y chatbot');
    await page.getByRole('button', { name: 'Agregar cola' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Ventas');
    await dialog
      .getByRole('textbox', { name: 'Mensaje de saludo' })
      .fill('¡Hola! Elija una opción.');
    await dialog.getByRole('button', { name: 'Agregar', exact: true }).click();
    await dialog.getByText('Cola creada.').waitFor();

    await dialog.getByRole('tab', { name: 'Opciones' }).click();
    await addOption(dialog, 'Precios', 'Nuestros precios empiezan en $10.');
    await addOption(dialog, 'Horarios', 'Abrimos de lunes a viernes de 8 a 18.');
    expect(await optionsShown(dialog)).toEqual(['1 Precios', '2 Horarios']);
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row').filter({ hasText: 'Ventas' }).waitFor();

    await openFromDrawer(page, 'Usuarios', 'Usuarios');
    await page.getByRole('button', { name: 'Agregar usuario' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Nombre' }).fill('Agente Uno');
    await dialog.getByRole('textbox', { name: 'Correo electrónico' }).fill('agente.uno@test.local');
    await dialog.getByLabel('Contraseña').fill('AgenteUno1');
    await dialog.getByRole('combobox', { name: 'Colas' }).click();
    await page.getByRole('option', { name: 'Ventas' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Agregar', exact: true }).click();
    await page.getByText('Usuario guardado.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // After a reload the list and the user's queues come from the server again.
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'Agente Uno' });
    await row.waitFor();
    expect(await row.textContent()).toContain('agente.uno@test.local');
    await row.getByRole('button', { name: 'Editar a Agente Uno' }).click();
    dialog = page.getByRole('dialog');
    const queues = dialog.getByRole('combobox', { name: 'Colas' });
    await queues.getByText('Ventas').waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Nombre' }).inputValue()).toBe('Agente Uno');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });

    await openFromDrawer(page, 'Colas y chatbot', 'Colas y chatbot');
    await page.getByRole('button', { name: 'Editar la cola Ventas' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Opciones' }).click();
    await dialog.getByTestId('queue-option').filter({ hasText: 'Horarios' }).waitFor();
    expect(await optionsShown(dialog)).toEqual(['1 Precios', '2 Horarios']);
    await page.close();
  });
});
