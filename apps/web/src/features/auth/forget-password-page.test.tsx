import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { ForgetPasswordPage } from './forget-password-page';
import { LoginPage } from './login-page';

describe('password reset page', () => {
  it('reports an unknown email and stays on the first step', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        mockApi({
          'POST /forgetpassword/nobody%40example.com': () =>
            jsonResponse(404, { error: 'ERR_EMAIL_NOT_FOUND', message: 'Email not found' }),
        }),
      ),
    );
    const user = userEvent.setup();
    renderPage(<ForgetPasswordPage />, '/forgetpsw', null, { routes: { '/login': <LoginPage /> } });

    await user.type(
      await screen.findByRole('textbox', { name: 'Correo electrónico' }),
      'nobody@example.com',
    );
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));

    expect(await screen.findByText('Correo electrónico no encontrado.')).toBeTruthy();
    expect(screen.queryByLabelText('Código de verificación')).toBeNull();
  });

  it('sends the code, checks the new password and resets it', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = new URL(String(input));
        calls.push(`${init.method} ${url.pathname}`);
        return jsonResponse(200, { message: 'ok' });
      }),
    );
    const user = userEvent.setup();
    renderPage(<ForgetPasswordPage />, '/forgetpsw', null, { routes: { '/login': <LoginPage /> } });

    await user.type(
      await screen.findByRole('textbox', { name: 'Correo electrónico' }),
      'ana@example.com',
    );
    await user.click(screen.getByRole('button', { name: 'Enviar código' }));
    expect(await screen.findByText('Correo enviado. Revise su bandeja de entrada.')).toBeTruthy();

    await user.type(await screen.findByLabelText('Código de verificación'), '12 34');
    await user.type(screen.getByLabelText('Nueva contraseña'), 'weak');
    await user.type(screen.getByLabelText('Confirmar contraseña'), 'other');
    await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    expect(
      await screen.findByText(
        'Al menos 8 caracteres, con una mayúscula, una minúscula y un número',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeTruthy();
    expect(calls).toHaveLength(1);

    await user.clear(screen.getByLabelText('Nueva contraseña'));
    await user.type(screen.getByLabelText('Nueva contraseña'), 'Secret/123');
    await user.clear(screen.getByLabelText('Confirmar contraseña'));
    await user.type(screen.getByLabelText('Confirmar contraseña'), 'Secret/123');
    await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));

    expect(await screen.findByText('Contraseña actualizada.')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(calls).toEqual([
      'POST /forgetpassword/ana%40example.com',
      'POST /resetpasswords/ana%40example.com/12%2034/Secret%2F123',
    ]);
  });
});
