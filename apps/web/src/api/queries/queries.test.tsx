import type { ReactNode } from 'react';
import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { QueueView, WhatsappView } from '@atendi/shared';
import {
  callsOf,
  jsonResponse,
  makeAuth,
  makeTemplate,
  mockApi,
  templateListOf,
} from '../../test/fixtures';
import { makePrompt, promptListOf } from '../../test/prompts';
import { integrationOptionsOf, makeIntegration } from '../../test/queue-integrations';
import type { FakeSocket } from '../../test/fake-socket';
import { createQueryClient } from '../query-client';
import { setSession } from '../session';
import { connectSocket, getSocket } from '../socket';
import { useConnections } from './connections';
import { useQueues } from './queues';
import { useIntegrationOptions } from './integrations';
import { usePrompts } from './prompts';
import { useTagOptions } from './tags';
import { setTemplates, syncTemplates, useTemplates } from './templates';
import { useUserOptions } from './users';

const queue = (id: number, name: string): QueueView => ({
  id,
  name,
  color: '#2e7d32',
  greetingMessage: '',
  outOfHoursMessage: '',
  completion: '',
  ratingMessage: '',
  token: '',
  orderQueue: null,
  promptId: null,
  integrationId: null,
  routing: 'off',
  reassignMinutes: null,
  slaFirstResponseMinutes: null,
  slaNextResponseMinutes: null,
  slaResolutionMinutes: null,
  slaWarningMinutes: 5,
  outOfHoursQueueId: null,
  outOfHoursPromptId: null,
  schedules: [],
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
});

const connect = () => {
  setSession(makeAuth());
  connectSocket({ userId: 1, companyId: 1 });
  return getSocket() as unknown as FakeSocket;
};

const withClient = (children: ReactNode) => (
  <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>
);

// Two screens of different features that show the same list.
const QueueNames = ({ label }: { label: string }) => (
  <p>
    {label}: {(useQueues().data ?? []).map((row) => row.name).join(', ')}
  </p>
);

describe('shared query modules', () => {
  it('fetch GET /queue once for every screen that shows it and apply its live events', async () => {
    const socket = connect();
    const fetchMock = vi.fn(
      mockApi({ 'GET /queue': () => jsonResponse(200, [queue(1, 'Ventas')]) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(
      withClient(
        <>
          <QueueNames label="picker" />
          <QueueNames label="page" />
        </>,
      ),
    );

    expect(await screen.findByText('picker: Ventas')).toBeTruthy();
    expect(screen.getByText('page: Ventas')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /queue']);

    act(() => socket.receive('company-1-queue', { action: 'create', queue: queue(2, 'Soporte') }));
    expect(await screen.findByText('picker: Soporte, Ventas')).toBeTruthy();
    act(() => socket.receive('company-1-queue', { action: 'delete', queueId: 1 }));
    expect(await screen.findByText('page: Soporte')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /queue']);
  });

  it('keep the connections list on session updates, and read it again for a connection it lacks', async () => {
    const socket = connect();
    const row = { id: 1, name: 'Línea', status: 'qrcode' } as WhatsappView;
    let rows = [row];
    const fetchMock = vi.fn(mockApi({ 'GET /whatsapp': () => jsonResponse(200, rows) }));
    vi.stubGlobal('fetch', fetchMock);
    const Statuses = () => (
      <p>{(useConnections().data ?? []).map((c) => `${c.name} ${c.status}`).join(', ')}</p>
    );
    render(withClient(<Statuses />));

    expect(await screen.findByText('Línea qrcode')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /whatsapp?session=0']);
    act(() =>
      socket.receive('company-1-whatsappSession', {
        action: 'update',
        session: { id: 1, status: 'CONNECTED' },
      }),
    );
    expect(await screen.findByText('Línea CONNECTED')).toBeTruthy();

    rows = [
      { ...row, status: 'CONNECTED' },
      { id: 2, name: 'Nueva', status: 'OPENING' } as WhatsappView,
    ];
    act(() =>
      socket.receive('company-1-whatsappSession', {
        action: 'update',
        session: { id: 2, status: 'OPENING' },
      }),
    );
    expect(await screen.findByText('Línea CONNECTED, Nueva OPENING')).toBeTruthy();
  });

  it('read the users short list again when a user changes', async () => {
    const socket = connect();
    let users = [{ id: 1, name: 'Ana' }];
    const fetchMock = vi.fn(mockApi({ 'GET /users/list': () => jsonResponse(200, users) }));
    vi.stubGlobal('fetch', fetchMock);
    const Names = () => <p>{(useUserOptions().data ?? []).map((u) => u.name).join(', ')}</p>;
    render(withClient(<Names />));

    expect(await screen.findByText('Ana')).toBeTruthy();
    users = [...users, { id: 2, name: 'Bruno' }];
    act(() => socket.receive('company-1-user', { action: 'create', user: { id: 2 } }));
    await waitFor(() => expect(screen.getByText('Ana, Bruno')).toBeTruthy());
    expect(callsOf(fetchMock)).toEqual(['GET /users/list', 'GET /users/list']);
  });

  it('fetch GET /tags/list once for the drawer and the search filter and apply tag events', async () => {
    const socket = connect();
    const tag = (id: number, name: string) => ({ id, name, color: '#A4CCCC', kanban: 0 });
    const fetchMock = vi.fn(
      mockApi({ 'GET /tags/list': () => jsonResponse(200, [tag(1, 'VIP')]) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const TagNames = ({ label }: { label: string }) => (
      <p>
        {label}: {(useTagOptions().data ?? []).map((row) => row.name).join(', ')}
      </p>
    );
    render(
      withClient(
        <>
          <TagNames label="drawer" />
          <TagNames label="filter" />
        </>,
      ),
    );

    expect(await screen.findByText('drawer: VIP')).toBeTruthy();
    expect(screen.getByText('filter: VIP')).toBeTruthy();
    act(() => socket.receive('company-1-tag', { action: 'create', tag: tag(2, 'Atrasado') }));
    expect(await screen.findByText('filter: Atrasado, VIP')).toBeTruthy();
    act(() => socket.receive('company-1-tag', { action: 'delete', tagId: 1 }));
    expect(await screen.findByText('drawer: Atrasado')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /tags/list']);
  });

  it('fetch GET /prompt once for the prompts page and the agent select, and apply its live events', async () => {
    const socket = connect();
    const fetchMock = vi.fn(
      mockApi({ 'GET /prompt': () => promptListOf([makePrompt({ id: 1, name: 'Ventas' })]) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const Page = () => <p>page: {usePrompts().data?.count}</p>;
    const Select = () => (
      <p>
        select:{' '}
        {usePrompts({ select: (data) => data.prompts.map((prompt) => prompt.name) }).data?.join(
          ', ',
        )}
      </p>
    );
    render(
      withClient(
        <>
          <Page />
          <Select />
        </>,
      ),
    );

    expect(await screen.findByText('select: Ventas')).toBeTruthy();
    expect(screen.getByText('page: 1')).toBeTruthy();
    act(() =>
      socket.receive('company-1-prompt', {
        action: 'create',
        prompt: makePrompt({ id: 2, name: 'Soporte' }),
      }),
    );
    expect(await screen.findByText('select: Soporte, Ventas')).toBeTruthy();
    expect(screen.getByText('page: 2')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /prompt']);
  });

  it('keep the integrations picker list by name through live events, without reading it again', async () => {
    const socket = connect();
    const fetchMock = vi.fn(
      mockApi({
        'GET /queueIntegration/list': () =>
          integrationOptionsOf([{ id: 5, name: 'Webhook CRM', type: 'webhook' }]),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const Names = () => (
      <p>{(useIntegrationOptions().data ?? []).map((option) => option.name).join(', ')}</p>
    );
    render(withClient(<Names />));

    expect(await screen.findByText('Webhook CRM')).toBeTruthy();
    act(() =>
      socket.receive('company-1-queueIntegration', {
        action: 'create',
        queueIntegration: makeIntegration({ id: 6, name: 'Bot de ventas' }),
      }),
    );
    expect(await screen.findByText('Bot de ventas, Webhook CRM')).toBeTruthy();
    act(() => socket.receive('company-1-queueIntegration', { action: 'delete', integrationId: 5 }));
    expect(await screen.findByText('Bot de ventas')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /queueIntegration/list']);
  });

  it("fetch a connection's templates once for every screen, and show a sync's answer on each", async () => {
    connect();
    const fetchMock = vi.fn(
      mockApi({
        'GET /whatsapp/4/templates': () => templateListOf([makeTemplate({ name: 'bienvenida' })]),
        'POST /whatsapp/4/templates/sync': () =>
          templateListOf([makeTemplate({ name: 'recordatorio' })], '2025-03-05T10:00:00.000Z'),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const Names = ({ label }: { label: string }) => (
      <p>
        {label}: {(useTemplates(4).data?.templates ?? []).map((row) => row.name).join(', ')}
      </p>
    );
    const Sync = () => {
      const queryClient = useQueryClient();
      return (
        <button
          type="button"
          onClick={() => void syncTemplates(4).then((list) => setTemplates(queryClient, 4, list))}
        >
          sync
        </button>
      );
    };
    render(
      withClient(
        <>
          <Names label="connections" />
          <Names label="chat" />
          <Sync />
        </>,
      ),
    );

    expect(await screen.findByText('connections: bienvenida')).toBeTruthy();
    expect(screen.getByText('chat: bienvenida')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual(['GET /whatsapp/4/templates']);
    act(() => screen.getByRole('button', { name: 'sync' }).click());
    expect(await screen.findByText('connections: recordatorio')).toBeTruthy();
    expect(screen.getByText('chat: recordatorio')).toBeTruthy();
    expect(callsOf(fetchMock)).toEqual([
      'GET /whatsapp/4/templates',
      'POST /whatsapp/4/templates/sync',
    ]);
  });
});
