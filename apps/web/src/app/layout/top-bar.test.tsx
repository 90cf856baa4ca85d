import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSessionState } from '../../api/session';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { i18n } from '../../i18n/i18n';
import { jsonResponse, makeAuth, mockApi } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const DAY_MS = 24 * 60 * 60 * 1000;

const stubShellApi = (extra: Parameters<typeof mockApi>[0] = {}) => {
  const fetchMock = vi.fn(
    mockApi({
      'GET /version': () => jsonResponse(200, { version: '1.0.0' }),
      'GET /settings/': () => jsonResponse(200, []),
      ...extra,
    }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

describe('top bar', () => {
  it('switches the language and remembers it', async () => {
    stubShellApi();
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    await user.click(await screen.findByTestId('account-menu'));
    expect((screen.getByTestId('lang-es') as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByTestId('lang-en'));

    expect(window.localStorage.getItem('language')).toBe('en');
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(await screen.findByRole('menuitem', { name: 'Log out' })).toBeTruthy();
    expect(within(screen.getByTestId('drawer')).getByText('Administration')).toBeTruthy();
  });

  it('offers Brazilian Portuguese, named in the language shown, and switches to it', async () => {
    stubShellApi();
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    await user.click(await screen.findByTestId('account-menu'));
    expect(screen.getByRole('radio', { name: 'Portugués (Brasil)' })).toBe(
      screen.getByTestId('lang-pt-BR'),
    );
    await user.click(screen.getByTestId('lang-pt-BR'));

    expect(window.localStorage.getItem('language')).toBe('pt-BR');
    expect(document.documentElement.lang).toBe('pt-BR');
    expect(await screen.findByRole('menuitem', { name: 'Sair' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Português (Brasil)' }).matches(':checked')).toBe(
      true,
    );
    expect(within(screen.getByTestId('drawer')).getByText('Administração')).toBeTruthy();
  });

  it('toggles the theme and remembers it', async () => {
    stubShellApi();
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    const toggle = await screen.findByTestId('theme-toggle');
    expect(toggle.getAttribute('aria-label')).toBe('Cambiar tema');
    expect(document.documentElement.dataset.theme).toBe('light');

    await user.click(toggle);

    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('logs out through the API and returns to the login page', async () => {
    const fetchMock = stubShellApi({
      'DELETE /auth/logout': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    await user.click(await screen.findByTestId('account-menu'));
    await user.click(screen.getByTestId('logout'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    const calls = fetchMock.mock.calls.map(
      ([url, init]) => `${(init as RequestInit).method} ${new URL(String(url)).pathname}`,
    );
    expect(calls).toContain('DELETE /auth/logout');
    expect(getSessionState().status).toBe('anonymous');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('saves the profile with a blank password meaning unchanged', async () => {
    let body: unknown;
    stubShellApi({
      'PUT /users/1': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, {});
      },
    });
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    await user.click(await screen.findByTestId('account-menu'));
    await user.click(screen.getByTestId('profile'));
    const name = await screen.findByRole('textbox', { name: 'Nombre' });
    await user.clear(name);
    await user.type(name, 'Ana María');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Perfil actualizado.')).toBeTruthy();
    expect(body).toEqual({ name: 'Ana María', email: 'ana@example.com', password: '' });
    expect(getSessionState().session?.user.name).toBe('Ana María');
  });

  it('turns two-step verification on with the app’s code, shows the recovery codes, and off again', async () => {
    let enabled = false;
    const sent: Record<string, unknown>[] = [];
    stubShellApi({
      'GET /auth/two-factor': () =>
        jsonResponse(200, { enabled, required: false, recoveryCodesLeft: enabled ? 10 : 0 }),
      'POST /auth/two-factor/setup': () =>
        jsonResponse(200, {
          secret: 'JBSWY3DPEHPK3PXP',
          uri: 'otpauth://totp/Atendi:ana%40example.com?secret=JBSWY3DPEHPK3PXP',
        }),
      'POST /auth/two-factor/enable': (init) => {
        sent.push(JSON.parse(String(init.body)));
        enabled = true;
        return jsonResponse(200, { recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] });
      },
      'POST /auth/two-factor/disable': (init) => {
        sent.push(JSON.parse(String(init.body)));
        enabled = false;
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());
    await user.click(await screen.findByTestId('account-menu'));
    await user.click(screen.getByTestId('two-factor'));
    await user.click(
      await screen.findByRole('button', { name: 'Activar la verificación en dos pasos' }),
    );
    await user.type(await screen.findByRole('textbox', { name: 'Código de la app' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Activar' }));
    const list = await screen.findByRole('list', { name: 'Códigos de recuperación' });
    expect(list.textContent).toContain('ccccc-ddddd');
    await user.click(screen.getByRole('button', { name: 'Ya los guardé, continuar' }));

    await user.click(await screen.findByTestId('account-menu'));
    await user.click(screen.getByTestId('two-factor'));
    expect(await screen.findByText('Activada. Le quedan 10 códigos de recuperación.')).toBeTruthy();
    await user.type(screen.getByLabelText('Contraseña'), 'Secret123');
    await user.type(screen.getByRole('textbox', { name: 'Código' }), '654321');
    await user.click(screen.getByRole('button', { name: 'Desactivar' }));
    expect(
      await screen.findByRole('button', { name: 'Activar la verificación en dos pasos' }),
    ).toBeTruthy();
    expect(sent).toEqual([{ code: '123456' }, { password: 'Secret123', code: '654321' }]);
  });

  it('lists my sessions and ends another one, then all the others', async () => {
    let sessions = [
      {
        id: '11111111-1111-4111-8111-111111111111',
        device: 'Firefox on Linux',
        address: '198.51.100.10',
        createdAt: '2026-11-28T10:00:00.000Z',
        lastUsedAt: '2026-11-29T10:00:00.000Z',
        current: true,
      },
      {
        id: '22222222-2222-4222-8222-222222222222',
        device:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        address: '198.51.100.11',
        createdAt: '2026-11-28T11:00:00.000Z',
        lastUsedAt: '2026-11-29T09:00:00.000Z',
        current: false,
      },
    ];
    const ended: string[] = [];
    stubShellApi({
      'GET /auth/sessions': () => jsonResponse(200, { sessions }),
      'DELETE /auth/sessions/22222222-2222-4222-8222-222222222222': () => {
        ended.push('one');
        sessions = sessions.filter((s) => s.current);
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());
    await user.click(await screen.findByTestId('account-menu'));
    await user.click(screen.getByTestId('sessions'));
    const list = await screen.findByRole('list', { name: 'Sesiones' });
    expect(within(list).getByText('Firefox on Linux (esta sesión)')).toBeTruthy();
    // A browser's long name of itself reads as people name it.
    expect(within(list).getByText('Chrome en Android')).toBeTruthy();
    expect(within(list).getByText(/Desde 198\.51\.100\.11/)).toBeTruthy();
    await user.click(
      within(list).getByRole('button', { name: 'Cerrar la sesión de Chrome en Android' }),
    );
    await waitFor(() => expect(within(list).queryByText('Chrome en Android')).toBeNull());
    expect(ended).toEqual(['one']);
    expect(screen.getByRole('button', { name: 'Cerrar las demás sesiones' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('remembers the notification volume', async () => {
    stubShellApi();
    const user = userEvent.setup();
    renderApp('/tickets', makeAuth());

    await user.click(await screen.findByTestId('volume-button'));
    const slider = await screen.findByRole('slider', { name: 'Volumen' });
    slider.focus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');

    expect(window.localStorage.getItem('volume')).toBe('0.8');
  });

  it('shows the due date in the subscription banner and warns when it is near', async () => {
    stubShellApi();
    const due = new Date(Date.now() + 3 * DAY_MS);
    renderApp('/tickets', makeAuth({ companyDueDate: due.toISOString() }));

    const banner = await screen.findByTestId('subscription-banner');
    const date = `${String(due.getDate()).padStart(2, '0')}/${String(due.getMonth() + 1).padStart(2, '0')}/${due.getFullYear()}`;
    expect(banner.textContent).toBe(`Vence el ${date} (quedan 3 días)`);
  });

  it('shows my presence, sets my availability through PUT /presence and follows presence events', async () => {
    const sent: unknown[] = [];
    stubShellApi({
      'PUT /presence': (init) => {
        sent.push(JSON.parse(String(init.body)));
        return jsonResponse(200, { userId: 1, presence: 'offline', availability: 'offline' });
      },
    });
    const user = userEvent.setup();
    // Available, but away: no tab of mine was used for a while.
    renderApp('/tickets', makeAuth({ user: { presence: 'away', availability: 'online' } }));

    // The account button describes my presence; its dot is amber.
    const account = await screen.findByRole('button', {
      name: 'Mi cuenta',
      description: 'Ausente',
    });
    const dot = () => account.querySelector('[data-presence]')?.getAttribute('data-presence');
    expect(dot()).toBe('away');
    await user.click(account);
    let menu = await screen.findByRole('menu');
    expect(within(menu).getByTestId('own-presence').textContent).toBe('Ausente');
    const choices = within(menu).getAllByRole('menuitemradio');
    expect(choices.map((choice) => choice.textContent)).toEqual([
      'Disponible',
      'Ausente',
      'Desconectado',
    ]);
    expect(choices.map((choice) => choice.getAttribute('aria-checked'))).toEqual([
      'true',
      'false',
      'false',
    ]);

    await user.click(within(menu).getByRole('menuitemradio', { name: 'Desconectado' }));
    await waitFor(() => expect(sent).toEqual([{ availability: 'offline' }]));
    expect(
      await screen.findByRole('button', { name: 'Mi cuenta', description: 'Desconectado' }),
    ).toBe(account);
    expect(dot()).toBe('offline');
    expect(getSessionState().session?.user).toMatchObject({
      presence: 'offline',
      availability: 'offline',
      online: false,
    });

    // Another tab of mine chose again; someone else's change is not mine.
    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-presence', {
        action: 'update',
        userId: 1,
        presence: 'online',
        availability: 'online',
      });
      socket.receive('company-1-presence', {
        action: 'update',
        userId: 2,
        presence: 'away',
        availability: 'away',
      });
    });
    expect(await screen.findByRole('button', { name: 'Mi cuenta', description: 'En línea' })).toBe(
      account,
    );
    expect(dot()).toBe('online');
    await user.click(account);
    menu = await screen.findByRole('menu');
    expect(
      within(menu).getByRole('menuitemradio', { name: 'Disponible' }).getAttribute('aria-checked'),
    ).toBe('true');

    await act(() => i18n.changeLanguage('en'));
    expect(
      (await within(menu).findAllByRole('menuitemradio')).map((choice) => choice.textContent),
    ).toEqual(['Available', 'Away', 'Offline']);
    await user.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'My account', description: 'Online' })).toBe(
      account,
    );
  });
});
