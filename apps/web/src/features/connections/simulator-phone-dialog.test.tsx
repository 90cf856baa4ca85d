import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SimulatorOutboundView } from '@atendi/shared';
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

const reply: SimulatorOutboundView = {
  id: 'OUT1',
  to: '5215511112222',
  body: 'Hola, ¿en qué le ayudamos?',
  mediaType: 'chat',
  fileName: null,
  quotedId: null,
  ack: 2,
  createdAt: '2025-03-04T09:06:00',
};

type Post = { path: string; body?: Record<string, unknown> };

// The simulator routes; outbound lists the platform's reply once a contact has written.
const stubSimulator = (connection = simulator, others: Connection[] = []) => {
  const posts: Post[] = [];
  const reads = { outbound: 0 };
  const record = (path: string, answer: () => Response) => (init: RequestInit) => {
    posts.push({ path, body: init.body ? bodyOf(init) : undefined });
    return answer();
  };
  stubApi({
    'GET /whatsapp': () => jsonResponse(200, [connection, ...others]),
    'GET /simulator/5/outbound': () => {
      reads.outbound += 1;
      return jsonResponse(200, posts.some((post) => post.path === 'inbound') ? [reply] : []);
    },
    'POST /simulator/5/scan': record('scan', () => jsonResponse(200, { status: 'CONNECTED' })),
    'POST /simulator/5/inbound': record('inbound', () => jsonResponse(200, { id: 'SIM1' })),
    'POST /simulator/5/ack': record('ack', () => new Response(null, { status: 204 })),
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
    expect(
      await within(panel).findByText('La plataforma aún no envió mensajes por esta conexión.'),
    ).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Escanear QR' }));
    expect(await screen.findByText('QR escaneado.')).toBeTruthy();
    expect(posts.map((post) => post.path)).toEqual(['scan']);

    await receiveSession(sessionOf(simulator, { status: 'CONNECTED', qrcode: '' }));
    expect(within(panel).getByText('Conectado')).toBeTruthy();
    // Pairing is over: there is no code left to scan.
    const scan = within(panel).getByRole('button', { name: 'Escanear QR' });
    expect(scan.hasAttribute('disabled')).toBe(true);
  });

  it('writes as a contact and acknowledges what the phone received', async () => {
    const { posts, reads } = stubSimulator({ ...simulator, status: 'CONNECTED', qrcode: '' });
    const user = setupUser();
    renderPage(<ConnectionsPage />, '/connections', makeAuth());

    const panel = await openPhone(user);
    await within(panel).findByText('La plataforma aún no envió mensajes por esta conexión.');
    const readsBefore = reads.outbound;
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

    // The platform's answer shows up in the phone, read again after the send.
    expect(await within(panel).findByText('Hola, ¿en qué le ayudamos?')).toBeTruthy();
    expect(reads.outbound).toBeGreaterThan(readsBefore);
    expect(within(panel).getByText(/Para 5215511112222 · Enviado/)).toBeTruthy();
    await user.click(
      within(panel).getByRole('button', {
        name: 'Marcar como leído: Hola, ¿en qué le ayudamos?',
      }),
    );
    await waitFor(() => expect(posts[1]).toEqual({ path: 'ack', body: { id: 'OUT1', ack: 4 } }));
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
