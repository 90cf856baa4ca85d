import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSessionState } from '../../api/session';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import {
  callsOf,
  jsonResponse,
  makeAuth,
  makeCompanyView,
  makeToken,
  stubApi,
  subscriptionsOverview,
} from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { setupUser } from '../../test/user-event';

const DUE = '2030-05-10T12:00:00.000Z';
const token = makeToken({ sid: 'session-7', id: 1 });

// GET /auth/me answers the user with the company as the server has it now.
const meWith = (companyStatus: 'active' | 'overdue' | 'suspended', companyDueDate = DUE) =>
  jsonResponse(200, makeAuth({ companyStatus, companyDueDate }).user);

const companyEvent = (companyId: number, overrides: Parameters<typeof makeCompanyView>[0]) => {
  const socket = getSocket() as unknown as FakeSocket;
  act(() => {
    socket.receive(`company-${companyId}-company`, {
      action: 'update',
      company: makeCompanyView(overrides),
    });
  });
};

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('live company status', () => {
  it('lets a user waiting on /restricted-access into the app once a payment activates the company', async () => {
    const fetchMock = stubApi({ 'GET /auth/me': () => meWith('active') });
    renderApp('/tickets', makeAuth({ companyStatus: 'overdue', token }));
    expect(await heading('Acceso restringido')).toBeTruthy();

    companyEvent(1, { status: 'active', effectiveStatus: 'active', dueDate: DUE });

    expect(await heading('Tickets')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeNull();
    const { session } = getSessionState();
    expect(session?.token).toBe(token);
    expect(session?.companyStatus).toBe('active');
    expect(session?.companyDueDate).toBe(DUE);
    await waitFor(() => expect(callsOf(fetchMock)).toContain('GET /auth/me'));
  });

  it('turns /success into "Suscripción activa" and leads to /tickets without a new login', async () => {
    stubApi({
      'GET /auth/me': () => meWith('active'),
      'GET /subscriptions': () => subscriptionsOverview(),
    });
    const user = setupUser();
    renderApp('/success?session_id=cs_test_1', makeAuth({ companyStatus: 'suspended', token }));

    expect(await heading('¡Pago recibido!')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Confirmando el pago…');
    expect(screen.queryByRole('link', { name: 'Ir a los tickets' })).toBeNull();

    companyEvent(1, { status: 'active', effectiveStatus: 'active', dueDate: DUE });

    expect(await heading('Suscripción activa')).toBeTruthy();
    expect(screen.queryByText('Confirmando el pago…')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Ir a los tickets' }));
    expect(await heading('Tickets')).toBeTruthy();
    expect(getSessionState().session?.token).toBe(token);
  });

  it('sends an active user to /restricted-access when the company is suspended meanwhile', async () => {
    stubApi({ 'GET /auth/me': () => meWith('suspended') });
    renderApp('/tickets', makeAuth({ companyStatus: 'active', token }));
    expect(await heading('Tickets')).toBeTruthy();

    companyEvent(1, { status: 'suspended', effectiveStatus: 'suspended' });

    expect(await heading('Acceso restringido')).toBeTruthy();
    expect(getSessionState().session?.companyStatus).toBe('suspended');
  });

  it('applies the status the gate applies (effectiveStatus), not the stored one', async () => {
    // Stored active but past its due date: the gate treats it as overdue.
    let answerMe = () => {};
    const meAnswered = new Promise<void>((resolve) => (answerMe = resolve));
    stubApi({ 'GET /auth/me': () => meAnswered.then(() => meWith('active')) });
    renderApp('/tickets', makeAuth({ companyStatus: 'active', token }));
    expect(await heading('Tickets')).toBeTruthy();

    companyEvent(1, {
      status: 'active',
      effectiveStatus: 'overdue',
      dueDate: '2024-01-01T12:00:00.000Z',
    });

    expect(await heading('Acceso restringido')).toBeTruthy();
    // The answer of GET /auth/me arrives later (it replaces the session) and does not undo the
    // event's status.
    const beforeAnswer = getSessionState().session;
    answerMe();
    await waitFor(() => expect(getSessionState().session).not.toBe(beforeAnswer));
    expect(getSessionState().session?.companyStatus).toBe('overdue');
    expect(getSessionState().session?.companyDueDate).toBe('2024-01-01T12:00:00.000Z');
  });

  it('ignores another company’s change that reaches a super user’s room', async () => {
    const fetchMock = stubApi({ 'GET /auth/me': () => meWith('active') });
    renderApp('/tickets', makeAuth({ companyStatus: 'active', token, user: { super: true } }));
    expect(await heading('Tickets')).toBeTruthy();

    // The event is handled (or ignored) as it arrives: a sync would change the session and ask
    // GET /auth/me at once.
    companyEvent(1, { id: 10, status: 'suspended', effectiveStatus: 'suspended' });

    expect(screen.getByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
    expect(getSessionState().session?.companyStatus).toBe('active');
    expect(callsOf(fetchMock)).not.toContain('GET /auth/me');
  });

  it('sends the user to /restricted-access when a call answers ERR_COMPANY_INACTIVE', async () => {
    const fetchMock = stubApi({
      'GET /tags': () =>
        jsonResponse(403, { error: 'ERR_COMPANY_INACTIVE', message: 'Company is not active' }),
      'GET /auth/me': () => meWith('suspended'),
    });
    renderApp('/tags', makeAuth({ companyStatus: 'active', token }));

    expect(await heading('Acceso restringido')).toBeTruthy();
    await waitFor(() => expect(getSessionState().session?.companyStatus).toBe('suspended'));
    expect(getSessionState().session?.token).toBe(token);
    expect(callsOf(fetchMock).filter((call) => call === 'GET /auth/me')).toHaveLength(1);
  });
});
