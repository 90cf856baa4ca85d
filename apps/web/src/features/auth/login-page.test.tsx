import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState } from '../../api/session';
import { goToUrl } from '../../lib/browser';
import { jsonResponse, makeAuth, mockApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { renderPage } from '../../test/render-page';
import { LoginPage } from './login-page';

const DAY_MS = 24 * 60 * 60 * 1000;

const fillAndSubmit = async (email = 'ana@example.com', password = 'secret') => {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: 'Correo electrónico' }), email);
  await user.type(screen.getByLabelText('Contraseña'), password);
  await user.click(screen.getByRole('button', { name: 'Ingresar' }));
};

describe('login page', () => {
  it('shows the translated invalid-credentials error in a red box', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid credentials' }),
        }),
      ),
    );
    renderPage(<LoginPage />, '/login');

    await fillAndSubmit();

    const box = await screen.findByTestId('login-error');
    expect(box.textContent).toBe('Usuario o contraseña incorrectos.');
    expect(box.getAttribute('role')).toBe('alert');
    expect(getSessionState().status).toBe('anonymous');
  });

  it('switches to Brazilian Portuguese from its language buttons, errors included', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid credentials' }),
        }),
      ),
    );
    renderPage(<LoginPage />, '/login');
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Portugués (Brasil)' }));

    expect(await screen.findByRole('link', { name: 'Esqueceu sua senha?' })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ana@example.com');
    await user.type(screen.getByLabelText('Senha'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Usuário ou senha incorretos.',
    );
  });

  it('shows the server message when the code is unknown', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () => jsonResponse(401, { errorMessage: 'Cuenta bloqueada' }),
        }),
      ),
    );
    renderPage(<LoginPage />, '/login');

    await fillAndSubmit();

    expect((await screen.findByTestId('login-error')).textContent).toBe('Cuenta bloqueada');
  });

  it('tells how long to wait after too many attempts', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(
              429,
              { error: 'ERR_TOO_MANY_REQUESTS', message: 'Too many requests' },
              { 'Retry-After': '30' },
            ),
        }),
      ),
    );
    renderPage(<LoginPage />, '/login');

    await fillAndSubmit();

    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Demasiados intentos. Intente de nuevo en 30 segundos.',
    );
  });

  it('validates the fields before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LoginPage />, '/login');

    await fillAndSubmit('not-an-email', 'x');

    expect(await screen.findByText('Correo electrónico inválido')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers the company’s SSO for an email of its domains, and only SSO when passwords are off', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'GET /auth/sso': (init) => {
            const email = init.url.searchParams.get('email') ?? '';
            asked.push(email);
            if (email.endsWith('@acme.com'))
              return jsonResponse(200, { sso: true, passwordLogin: true });
            if (email.endsWith('@solo.com'))
              return jsonResponse(200, { sso: true, passwordLogin: false });
            return jsonResponse(200, { sso: false, passwordLogin: true });
          },
        }),
      ),
    );
    const user = userEvent.setup();
    renderPage(<LoginPage />, '/login');
    const email = await screen.findByRole('textbox', { name: 'Correo electrónico' });

    await user.type(email, 'Ana@Acme.com');
    const sso = await screen.findByRole('button', { name: 'Entrar con SSO' });
    expect(screen.getByLabelText('Contraseña')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ingresar' })).toBeTruthy();
    await user.click(sso);
    expect(goToUrl).toHaveBeenCalledWith(
      'http://localhost:8080/auth/sso/start?email=ana%40acme.com',
    );

    await user.clear(email);
    await user.type(email, 'luis@solo.com');
    expect(
      await screen.findByText('Su empresa entra solo con SSO: la contraseña no se usa.'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Contraseña')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ingresar' })).toBeNull();
    await user.type(email, '{Enter}');
    expect(goToUrl).toHaveBeenLastCalledWith(
      'http://localhost:8080/auth/sso/start?email=luis%40solo.com',
    );

    await user.clear(email);
    await user.type(email, 'eva@otra.com');
    await waitFor(() => expect(asked).toContain('eva@otra.com'));
    expect(screen.queryByRole('button', { name: 'Entrar con SSO' })).toBeNull();
    // Only whole addresses are asked about, once typing pauses.
    expect(asked.every((address) => address.includes('@') && address.includes('.'))).toBe(true);
  });

  it('says why a sign-in through the provider came back refused', async () => {
    vi.stubGlobal('fetch', vi.fn(mockApi({})));
    renderPage(<LoginPage />, '/login?ssoError=ERR_SSO_NO_ACCOUNT');
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'No hay una cuenta para su correo en esta empresa: pídala a un administrador.',
    );
  });

  // Where a new session lands is the route guards' choice: these two render the whole app.
  it('sends an active company to the tickets page', async () => {
    let body: unknown;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': (init) => {
            body = JSON.parse(String(init.body));
            return jsonResponse(200, makeAuth());
          },
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );
    renderApp('/login');

    await fillAndSubmit();

    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
    expect(body).toEqual({ email: 'ana@example.com', password: 'secret' });
    expect(window.localStorage.getItem('token')).toBe(getSessionState().session?.token);
  });

  it('sends a company that is not active to subscriptions and warns about the due date', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(
              200,
              makeAuth({
                companyStatus: 'overdue',
                companyDueDate: new Date(Date.now() + 2 * DAY_MS).toISOString(),
              }),
            ),
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );
    renderApp('/login');

    await fillAndSubmit();

    expect(await screen.findByRole('heading', { level: 1, name: 'Suscripciones' })).toBeTruthy();
    expect(await screen.findByText('Su suscripción vence en 2 días.')).toBeTruthy();
  });

  it('tells a suspended company nothing about its due date: the restriction is the reason', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () =>
            jsonResponse(
              200,
              makeAuth({
                companyStatus: 'suspended',
                companyDueDate: new Date(Date.now() + 2 * DAY_MS).toISOString(),
              }),
            ),
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );
    renderApp('/login');

    await fillAndSubmit();

    expect(await screen.findByRole('heading', { level: 1, name: 'Suscripciones' })).toBeTruthy();
    expect(screen.queryByText(/vence en/)).toBeNull();
  });
});

describe('two-step verification at login', () => {
  const challenge = 'c'.repeat(43);

  it('asks for the code after the password and signs in once it is right', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () => jsonResponse(200, { twoFactor: 'verify', challenge }),
          'POST /auth/login/two-factor': (init) => {
            const body = JSON.parse(String(init.body)) as { code: string };
            sent.push(body);
            return body.code === '654321'
              ? jsonResponse(200, makeAuth())
              : jsonResponse(401, { error: 'ERR_TWO_FACTOR_INVALID', message: 'Wrong' });
          },
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );
    renderApp('/login');
    await fillAndSubmit();

    const user = userEvent.setup();
    const code = await screen.findByRole('textbox', { name: 'Código' });
    expect(getSessionState().status).toBe('anonymous');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    expect((await screen.findByTestId('two-factor-error')).textContent).toBe(
      'El código no es correcto (o ya se usó).',
    );
    await user.clear(code);
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
    expect(sent).toEqual([
      { challenge, code: '123456' },
      { challenge, code: '654321' },
    ]);
  });

  it('enrols the factor a company requires, shows the recovery codes once, then enters', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /auth/login': () => jsonResponse(200, { twoFactor: 'enroll', challenge }),
          'POST /auth/login/two-factor/setup': () =>
            jsonResponse(200, {
              secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
              uri: 'otpauth://totp/Atendi:ana%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
            }),
          'POST /auth/login/two-factor/enroll': () =>
            jsonResponse(200, { ...makeAuth(), recoveryCodes: codes }),
          'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
          'GET /settings/': () => jsonResponse(200, []),
        }),
      ),
    );
    renderApp('/login');
    await fillAndSubmit();

    const user = userEvent.setup();
    expect((await screen.findByTestId('two-factor-secret')).textContent).toBe(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(screen.getByTitle('Código QR para la app de autenticación')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Código de la app' }), '112233');
    await user.click(screen.getByRole('button', { name: 'Verificar' }));
    const list = await screen.findByRole('list', { name: 'Códigos de recuperación' });
    expect(list.textContent).toContain('abcd9-efgh9');
    // Not in yet: the codes are seen first.
    expect(getSessionState().status).toBe('anonymous');
    await user.click(screen.getByRole('button', { name: 'Ya los guardé, continuar' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Tickets' })).toBeTruthy();
  });
});
