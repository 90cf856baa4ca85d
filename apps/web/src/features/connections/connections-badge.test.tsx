import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { makeConnection, receiveSession, sessionOf } from './connections.fixtures';

const connectionsLink = async () =>
  within(await screen.findByTestId('drawer')).getByRole('link', { name: /^Conexiones/ });

const hasBadge = (link: HTMLElement) => within(link).queryByText('!') !== null;

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('connections badge in the drawer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('flags a session needing attention 2 s after the list changes, and clears once it connects', async () => {
    // Time runs on its own, and the test can jump it to the 2 s mark.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const pagos = makeConnection({ id: 3, name: 'Pagos', status: 'DISCONNECTED' });
    stubApi({ 'GET /whatsapp': () => jsonResponse(200, [makeConnection(), pagos]) });
    // The page and the drawer share one list: once its rows show, the 2 s check is counting.
    renderApp('/connections', makeAuth());
    await screen.findByText('Pagos');
    const link = await connectionsLink();
    expect(hasBadge(link)).toBe(false);
    await advance(1000);
    expect(hasBadge(link)).toBe(false);
    await advance(1000);
    expect(hasBadge(link)).toBe(true);
    expect(link.textContent).toContain('Hay conexiones que requieren atención');

    await receiveSession(sessionOf(pagos, { status: 'CONNECTED' }));
    expect(hasBadge(link)).toBe(true);
    await advance(2000);
    expect(hasBadge(link)).toBe(false);
    expect(link.textContent).not.toContain('Hay conexiones que requieren atención');
  });

  it('asks nothing and shows nothing for a profile without the connections item', async () => {
    const fetchMock = stubApi({
      'GET /whatsapp': () => jsonResponse(200, [makeConnection({ status: 'DISCONNECTED' })]),
    });
    renderApp('/tickets', makeAuth({ user: { profile: 'user' } }));

    const drawer = within(await screen.findByTestId('drawer'));
    expect(drawer.getByRole('link', { name: 'Tickets' })).toBeTruthy();
    expect(drawer.queryByRole('link', { name: /Conexiones/ })).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('GET /whatsapp'))).toBe(false);
  });
});
