import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeTypebot, type FakeTypebot } from '../apps/api/test/fake-typebot';
import { eventually } from '../apps/api/test/eventually';
import { apiClient, type Outbound, pairSimulator, POLL } from './support/api';
import { launchBrowser } from './support/browser';
import { logIn } from './support/pages';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './support/server';

// Integrations end to end: the product talks to a local server speaking Typebot's chat API (the same
// stand-in the API tests use). An admin creates a Typebot integration and puts it on a queue; a
// simulated contact chooses that queue, walks the flow by choosing an option, restarts it with the
// keyword, and at the end of the flow the conversation waits for a person in the inbox.

let typebot: FakeTypebot;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  typebot = await startFakeTypebot();
  typebot.publish('soporte-e2e', [
    {
      id: 'start',
      say: ['Hola **{{name}}**, soy el bot de Soporte.', '¿Qué necesitas?'],
      choices: [
        { label: 'Estado de un pedido', next: 'order' },
        { label: 'Hablar con alguien', next: 'human' },
      ],
    },
    {
      id: 'order',
      say: ['Escribe el número de pedido.'],
      ask: { variable: 'order', next: 'sent' },
    },
    { id: 'sent', say: ['El pedido {{order}} sale hoy.'] },
    { id: 'human', say: ['Te paso con una persona.'] },
  ]);
  // The Typebot server runs on this machine: the operator lets loopback through, as one would for
  // a Typebot on their own network (company-supplied URLs are refused there otherwise).
  server = await startServer({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await typebot?.close();
});

const CONTACT = '5491155550400';
const MENU = '¿Qué necesitas?\n\n1 - Estado de un pedido\n2 - Hablar con alguien';

describe('integrations', () => {
  it('a Typebot flow on a queue converses with the contact and hands it to people when it ends', async () => {
    const client = apiClient(server.apiUrl);
    const setup = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const sales = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Ventas',
      color: '#2e7d32',
      orderQueue: 1,
    });
    const support = await client.call<{ id: number }>(setup, 'POST', '/queue', {
      name: 'Soporte',
      color: '#1565c0',
      orderQueue: 2,
    });
    // One login per account (a new one ends the others): the browser's admin is not the API's.
    await client.call(setup, 'POST', '/users', {
      name: 'Dueño',
      email: 'owner.tb@test.local',
      password: 'Owner12345',
      profile: 'admin',
    });

    // The admin creates the integration, pointing at the Typebot server.
    const admin = await (await browser.newContext()).newPage();
    await logIn(admin, server.webUrl, 'owner.tb@test.local', 'Owner12345');
    await admin.goto(`${server.webUrl}/queue-integration`);
    await admin.getByRole('button', { name: 'Agregar integración' }).click();
    const form = admin.getByRole('dialog', { name: 'Agregar integración' });
    await form.getByRole('textbox', { name: 'Nombre' }).fill('Bot de soporte');
    await form.getByRole('textbox', { name: 'URL de Typebot' }).fill(typebot.url);
    await form.getByRole('textbox', { name: 'Slug del flujo' }).fill('soporte-e2e');
    await form.getByRole('textbox', { name: 'Pausa entre mensajes (ms)' }).fill('300');
    await form.getByRole('textbox', { name: 'Palabra para reiniciar' }).fill('#inicio');
    await form.getByRole('textbox', { name: 'Mensaje al reiniciar' }).fill('Volvamos a empezar.');
    await form.getByRole('button', { name: 'Agregar', exact: true }).click();
    await admin.getByRole('row').filter({ hasText: 'Bot de soporte' }).waitFor();

    // …and puts it on the Soporte queue.
    await admin.goto(`${server.webUrl}/queues`);
    await admin.getByRole('button', { name: 'Editar la cola Soporte' }).click();
    const queueForm = admin.getByRole('dialog');
    await queueForm.getByRole('combobox', { name: 'Integración' }).click();
    await admin.getByRole('option', { name: 'Bot de soporte' }).click();
    await queueForm.getByRole('button', { name: 'Guardar', exact: true }).click();
    await queueForm.waitFor({ state: 'detached' });
    const saved = await client.call<{ integrationId: number | null }>(
      setup,
      'GET',
      `/queue/${support.id}`,
    );
    expect(saved.integrationId).not.toBeNull();

    const connection = await client.call<{ id: number }>(setup, 'POST', '/whatsapp', {
      name: 'Tienda',
      provider: 'simulator',
      greetingMessage: 'Bienvenido. Elija:',
      queueIds: [sales.id, support.id],
    });
    await pairSimulator(client, setup, connection.id);
    const write = (body: string) =>
      client.call(setup, 'POST', `/simulator/${connection.id}/inbound`, {
        from: CONTACT,
        name: 'Julia Paz',
        body,
      });
    const received = async () =>
      (await client.call<Outbound[]>(setup, 'GET', `/simulator/${connection.id}/outbound`)).map(
        (r) => r.body,
      );
    const nextReplies = async (count: number) => {
      const before = (await received()).length;
      return (
        await eventually(
          received,
          (rows) => rows.length >= before + count,
          `${count} more replies`,
          { ...POLL, timeoutMs: 15_000 },
        )
      ).slice(before);
    };

    // The admin watches the waiting list.
    await admin.goto(`${server.webUrl}/tickets`);
    await admin.getByRole('tab', { name: /En espera/ }).click();
    await admin.getByLabel('Ver todos').check();
    const waiting = admin.getByRole('list', { name: 'En espera' });
    const item = waiting.getByRole('listitem').filter({ hasText: 'Julia Paz' });
    const botChip = item.getByLabel(
      'Un bot (integración o agente de IA) atiende esta conversación',
    );

    // The queue menu, then the flow of the queue chosen.
    let replies = nextReplies(1);
    await write('Hola');
    await replies;
    replies = nextReplies(2);
    await write('2');
    expect(await replies).toEqual(['Hola *Julia Paz*, soy el bot de Soporte.', MENU]);
    await botChip.waitFor();

    // Choosing an option by its number walks the flow.
    replies = nextReplies(1);
    await write('1');
    expect(await replies).toEqual(['Escribe el número de pedido.']);

    // The keyword starts it over.
    replies = nextReplies(3);
    await write('#inicio');
    expect(await replies).toEqual([
      'Volvamos a empezar.',
      'Hola *Julia Paz*, soy el bot de Soporte.',
      MENU,
    ]);

    // The flow ends: the conversation waits for a person, no bot on it.
    replies = nextReplies(1);
    await write('Hablar con alguien');
    expect(await replies).toEqual(['Te paso con una persona.']);
    await botChip.waitFor({ state: 'detached' });
    await item.getByText('Te paso con una persona.').waitFor();
    expect(await item.getByText('Soporte').count()).toBe(1);
    const asked = typebot.requests.length;
    await write('¿Hola?');
    await item.getByText('¿Hola?').waitFor();
    expect(typebot.requests.length).toBe(asked);
  });
});
