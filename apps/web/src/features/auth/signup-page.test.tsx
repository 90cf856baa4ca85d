import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState } from '../../api/session';
import { jsonResponse, makeAuth, makePlan, mockApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { SignupPage } from './signup-page';
import { LoginPage } from './login-page';

// The platform bills in euros: the prices say so.
const plans = [
  makePlan({ id: 3, name: 'Basic', value: 39, currency: 'eur' }),
  makePlan({ id: 4, name: 'Plus', currency: 'eur' }),
];

const fillForm = async () => {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'Nombre de la empresa' }), 'Acme');
  await user.type(screen.getByRole('textbox', { name: 'Su nombre' }), 'Marta Díaz');
  await user.type(screen.getByRole('textbox', { name: 'Correo electrónico' }), 'boss@acme.com');
  await user.type(
    screen.getByRole('textbox', { name: 'Teléfono con código de área' }),
    '521551234567',
  );
  await user.type(screen.getByLabelText('Contraseña'), 'Secreta12');
  await user.click(screen.getByRole('combobox', { name: 'Plan' }));
  // Each limit in the number's own grammar: one connection, two users.
  await user.click(
    await screen.findByRole('option', {
      name: 'Basic · 2 usuarios · 1 conexión · 8 colas · 39,00\u00a0€/mes',
    }),
  );
  await user.click(screen.getByRole('button', { name: 'Registrarse' }));
};

describe('sign-up page', () => {
  it('creates the company with the chosen plan and its admin by name, and signs them in on the checklist', async () => {
    let body: Record<string, unknown> = {};
    let loginBody: Record<string, unknown> = {};
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'GET /plans/list': () => jsonResponse(200, plans),
          'POST /companies/cadastro': (init) => {
            body = JSON.parse(String(init.body));
            return jsonResponse(201, { id: 9 });
          },
          'POST /auth/login': (init) => {
            loginBody = JSON.parse(String(init.body));
            return jsonResponse(200, makeAuth());
          },
        }),
      ),
    );
    renderPage(<SignupPage />, '/signup?companyId=5', null, {
      routes: { '/login': <LoginPage />, '/': <h1>Primeros pasos</h1> },
    });

    await fillForm();

    expect(await screen.findByText(/¡Bienvenido! Su empresa está lista/)).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Primeros pasos' })).toBeTruthy();
    expect(getSessionState().status).toBe('authenticated');
    expect(loginBody).toEqual({ email: 'boss@acme.com', password: 'Secreta12' });
    expect(body).toMatchObject({
      name: 'Acme',
      userName: 'Marta Díaz',
      email: 'boss@acme.com',
      phone: '521551234567',
      password: 'Secreta12',
      planId: 3,
      companyId: 5,
      recurrence: 'MENSAL',
      status: 'active',
      campaignsEnabled: false,
    });
  });

  it('reports a failed sign-up and stays on the form', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'GET /plans/list': () => jsonResponse(200, plans),
          'POST /companies/cadastro': () =>
            jsonResponse(409, { error: 'ERR_EMAIL_ALREADY_EXISTS', message: 'Email exists' }),
        }),
      ),
    );
    renderPage(<SignupPage />, '/signup', null, { routes: { '/login': <LoginPage /> } });

    await fillForm();

    expect(
      await screen.findByText('Ya existe una cuenta con este correo electrónico.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Crear cuenta' })).toBeTruthy();
  });

  it('asks for the password rule of a reset before sending anything', async () => {
    const fetchMock = vi.fn(mockApi({ 'GET /plans/list': () => jsonResponse(200, plans) }));
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<SignupPage />, '/signup', null, { routes: { '/login': <LoginPage /> } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Contraseña'), 'abcde');
    await user.click(screen.getByRole('button', { name: 'Registrarse' }));

    expect(
      await screen.findByText(
        'Al menos 8 caracteres, con una mayúscula, una minúscula y un número',
      ),
    ).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContainEqual(
      expect.stringContaining('/companies/cadastro'),
    );
  });

  it('says a 13-digit phone is one digit too many instead of cutting it', async () => {
    const fetchMock = vi.fn(mockApi({ 'GET /plans/list': () => jsonResponse(200, plans) }));
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<SignupPage />, '/signup', null, { routes: { '/login': <LoginPage /> } });
    const user = userEvent.setup();
    const phone = await screen.findByRole('textbox', { name: 'Teléfono con código de área' });
    expect(screen.getByText('Con código de país y de área, hasta 12 dígitos')).toBeTruthy();
    await user.type(phone, '5215512345678');
    expect((phone as HTMLInputElement).value).toBe('5215512345678');
    await user.click(screen.getByRole('button', { name: 'Registrarse' }));

    expect(await screen.findByText('Solo números, hasta 12 dígitos')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContainEqual(
      expect.stringContaining('/companies/cadastro'),
    );
  });
});
