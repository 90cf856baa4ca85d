import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SimulatorConversationItem } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser, type User } from '../../test/user-event';
import type { Connection } from './connections.api';
import { bodyOf, makeConnection, receiveSession, sessionOf } from './connections.fixtures';
import { ConnectionsPage } from './connections-page';

const simulator = makeConnection({
  id: 5,
  name: 'Pruebas',
  provider: 'simulator',
  status: 'qrcode',
  qrcode: 'atendi-simulator:5:abc',
});

const reply: SimulatorConversationItem = {
  id: 'OUT1',
  direction: 'out',
  contact: '5215511112222',
  body: 'Hola, ¿en qué le ayudamos?',
  mediaType: 'chat',
  fileName: null,
  quotedId: null,
  ack: 2,
  forwarded: false,
  contactReaction: '',
  platformReaction: '',
  createdAt: '2025-03-04T09:06:00',
};

type Post = { path: string; body?: Record<string, unknown> };

// The simulator routes; the conversation holds what each contact wrote, each answered by the
// platform's reply (as `answer` has it), and the chat of one number when asked for it. A contact's
// reaction shows on the message it was for.
const stubSimulator = (
  connection = simulator,
  others: Connection[] = [],
  answer: Partial<SimulatorConversationItem> = {},
) => {
  const posts: Post[] = [];
  const reads = { conversation: 0, numbers: [] as (string | null)[] };
  const record = (path: string, answer: () => Response) => (init: RequestInit) => {
    posts.push({ path, body: init.body ? bodyOf(init) : undefined });
    return answer();
  };
  stubApi({
    'GET /whatsapp': () => jsonResponse(200, [connection, ...others]),
    'GET /simulator/5/conversation': ({ url }) => {
      reads.conversation += 1;
      const number = url.searchParams.get('number');
      reads.numbers.push(number);
      const chat = posts
        .filter((post) => post.path === 'inbound')
        .flatMap((post, i): SimulatorConversationItem[] => {
          const contact = String(post.body?.from);
          return [
            {
              ...reply,
              id: `IN${i}`,
              direction: 'in',
              contact,
              body: String(post.body?.body),
              ack: 0,
            },
            { ...reply, ...answer, id: i === 0 ? 'OUT1' : `OUT${i + 1}`, contact },
          ];
        });
      const reactionTo = (id: string) =>
        posts.findLast((post) => post.path === 'reaction' && post.body?.id === id)?.body?.emoji;
      return jsonResponse(
        200,
        chat
          .filter((message) => !number || message.contact === number)
          .map((message) => ({
            ...message,
            contactReaction: String(reactionTo(message.id) ?? message.contactReaction),
          })),
      );
    },
    'POST /simulator/5/scan': record('scan', () => jsonResponse(200, { status: 'CONNECTED' })),
    'POST /simulator/5/inbound': record('inbound', () => jsonResponse(200, { id: 'SIM1' })),
    'POST /simulator/5/ack': record('ack', () => new Response(null, { status: 204 })),
    'POST /simulator/5/reaction': record('reaction', () => new Response(null, { status: 204 })),
  });
  return { posts, reads };
};

const openPhone = async (user: User) => {
  const row = (await screen.findByText('Pruebas')).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: 'Teléfono' }));
  return screen.findByRole('dialog', { name: 'Teléfono simulado · Pruebas' });
};

describe('simulator phone panel', () => {
  it('scans the waiting QR, which pairs the connection', async () => {
    const { posts } = stubSimulator();
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const panel = await openPhone(user);
    expect(await within(panel).findByText('Aún no hay mensajes en esta conexión.')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Escanear QR' }));
    expect(await screen.findByText('QR escaneado.')).toBeTruthy();
    expect(posts.map((post) => post.path)).toEqual(['scan']);

    await receiveSession(sessionOf(simulator, { status: 'CONNECTED', qrcode: '' }));
    expect(within(panel).getByText('Conectado')).toBeTruthy();
    // Pairing is over: there is no code left to scan.
    const scan = within(panel).getByRole('button', { name: 'Escanear QR' });
    expect(scan.hasAttribute('disabled')).toBe(true);
  });

  it('writes as a contact and shows the whole chat with it, acking what the phone received', async () => {
    const { posts, reads } = stubSimulator({ ...simulator, status: 'CONNECTED', qrcode: '' });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const panel = await openPhone(user);
    await within(panel).findByText('Aún no hay mensajes en esta conexión.');
    const readsBefore = reads.conversation;
    await fill(user, within(panel).getByLabelText('Número del contacto'), '5215511112222');
    await fill(user, within(panel).getByLabelText('Nombre del contacto'), 'Lucía');
    await fill(user, within(panel).getByLabelText('Mensaje'), 'Hola, quiero un pedido');
    await user.click(within(panel).getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText('Mensaje entregado a la plataforma.')).toBeTruthy();
    expect(posts).toEqual([
      {
        path: 'inbound',
        body: { from: '5215511112222', name: 'Lucía', body: 'Hola, quiero un pedido' },
      },
    ]);

    // The chat with that contact: what it wrote, then the platform's answer, read again after the
    // send.
    const chat = within(
      await within(panel).findByRole('list', { name: 'Conversación con 5215511112222' }),
    );
    await waitFor(() =>
      expect(
        chat
          .getAllByRole('listitem')
          .map((item) => [item.dataset.direction, item.querySelector('span')?.textContent]),
      ).toEqual([
        ['in', 'Hola, quiero un pedido'],
        ['out', 'Hola, ¿en qué le ayudamos?'],
      ]),
    );
    expect(reads.conversation).toBeGreaterThan(readsBefore);
    expect(reads.numbers).toContain('5215511112222');
    expect(chat.getByText(/De 5215511112222/)).toBeTruthy();
    expect(chat.getByText(/Para 5215511112222 · Enviado/)).toBeTruthy();
    // Only what the platform sent can be acked by the phone.
    expect(
      chat.queryByRole('button', { name: 'Marcar como leído: Hola, quiero un pedido' }),
    ).toBeNull();
    await user.click(
      within(panel).getByRole('button', {
        name: 'Marcar como leído: Hola, ¿en qué le ayudamos?',
      }),
    );
    await waitFor(() => expect(posts[1]).toEqual({ path: 'ack', body: { id: 'OUT1', ack: 4 } }));
  });

  it('reacts as the contact, and shows each side’s reaction and the forwarded mark', async () => {
    const { posts } = stubSimulator({ ...simulator, status: 'CONNECTED', qrcode: '' }, [], {
      forwarded: true,
      platformReaction: '🙏',
    });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const panel = await openPhone(user);
    await fill(user, within(panel).getByLabelText('Número del contacto'), '5215511112222');
    await fill(user, within(panel).getByLabelText('Mensaje'), 'Hola, quiero un pedido');
    await user.click(within(panel).getByRole('button', { name: 'Enviar' }));
    const chat = within(
      await within(panel).findByRole('list', { name: 'Conversación con 5215511112222' }),
    );
    const answer = await chat.findByText('Hola, ¿en qué le ayudamos?');
    const answerItem = within(answer.closest('li')!);
    expect(answerItem.getByText('Reenviado')).toBeTruthy();
    expect(answerItem.getByText('Reacción de la plataforma: 🙏')).toBeTruthy();

    await user.click(
      within(panel).getByRole('button', {
        name: 'Reaccionar como el contacto: Hola, ¿en qué le ayudamos?',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Reaccionar con ❤️' }));
    expect(await answerItem.findByText('Reacción del contacto: ❤️')).toBeTruthy();
    expect(posts.filter((post) => post.path === 'reaction')).toEqual([
      { path: 'reaction', body: { from: '5215511112222', id: 'OUT1', emoji: '❤️' } },
    ]);

    // The same emoji again takes it back; the contact's own message can be reacted to as well.
    await user.click(
      within(panel).getByRole('button', {
        name: 'Reaccionar como el contacto: Hola, ¿en qué le ayudamos?',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Quitar la reacción ❤️' }));
    await waitFor(() => expect(answerItem.queryByText(/Reacción del contacto/)).toBeNull());
    await user.click(
      within(panel).getByRole('button', {
        name: 'Reaccionar como el contacto: Hola, quiero un pedido',
      }),
    );
    await user.click(await screen.findByRole('menuitem', { name: 'Reaccionar con 👍' }));
    await waitFor(() =>
      expect(posts.filter((post) => post.path === 'reaction').map((post) => post.body)).toEqual([
        { from: '5215511112222', id: 'OUT1', emoji: '❤️' },
        { from: '5215511112222', id: 'OUT1', emoji: '' },
        { from: '5215511112222', id: 'IN0', emoji: '👍' },
      ]),
    );
  });

  it('remembers the contact it writes as, per connection, when closed and opened again', async () => {
    const other = makeConnection({
      id: 6,
      name: 'Otra',
      provider: 'simulator',
      status: 'CONNECTED',
    });
    stubSimulator({ ...simulator, status: 'CONNECTED', qrcode: '' }, [other]);
    const user = setupUser();
    const { unmount } = renderPage(<ConnectionsPage />, '/connections', makeAuth());

    let panel = await openPhone(user);
    await fill(user, within(panel).getByLabelText('Número del contacto'), '5215511112222');
    await fill(user, within(panel).getByLabelText('Nombre del contacto'), 'Lucía');
    await user.click(within(panel).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    panel = await openPhone(user);
    expect((within(panel).getByLabelText('Número del contacto') as HTMLInputElement).value).toBe(
      '5215511112222',
    );
    expect((within(panel).getByLabelText('Nombre del contacto') as HTMLInputElement).value).toBe(
      'Lucía',
    );
    await user.click(within(panel).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Another connection's phone has its own contact.
    const otherRow = (await screen.findByText('Otra')).closest('tr')!;
    await user.click(within(otherRow).getByRole('button', { name: 'Teléfono' }));
    const otherPanel = await screen.findByRole('dialog', { name: 'Teléfono simulado · Otra' });
    expect(
      (within(otherPanel).getByLabelText('Número del contacto') as HTMLInputElement).value,
    ).toBe('');

    // And a new visit to the page (a reload) still has it.
    unmount();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());
    panel = await openPhone(user);
    expect((within(panel).getByLabelText('Número del contacto') as HTMLInputElement).value).toBe(
      '5215511112222',
    );
  });

  it('offers to disconnect the phone only once it is connected', async () => {
    stubSimulator();
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const panel = await openPhone(user);
    expect(within(panel).getByRole('button', { name: 'Escanear QR' })).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Desconectar teléfono' })).toBeNull();

    await receiveSession(sessionOf(simulator, { status: 'CONNECTED', qrcode: '' }));
    expect(await within(panel).findByRole('button', { name: 'Desconectar teléfono' })).toBeTruthy();

    await receiveSession(sessionOf(simulator, { status: 'DISCONNECTED', qrcode: '' }));
    await waitFor(() =>
      expect(within(panel).queryByRole('button', { name: 'Desconectar teléfono' })).toBeNull(),
    );
  });
});
