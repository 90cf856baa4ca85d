import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeAuth, stubApi } from '../../../test/fixtures';
import { renderPage } from '../../../test/render-page';
import { fill, refill, setupUser } from '../../../test/user-event';
import { videoCodeOf, type Help } from './helps.api';
import { SettingsPage } from '../settings-page';

const superAuth = () => makeAuth({ user: { super: true } });
const table = () => within(screen.getByRole('table', { name: 'Ayudas' }));
const rowOf = async (title: string) => (await table().findByText(title)).closest('tr')!;

const stamps = { createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
const intro: Help = {
  id: 1,
  title: 'Primeros pasos',
  video: 'abc123',
  description: 'Cómo empezar',
  ...stamps,
};

describe('helps tab', () => {
  it('lists helps with their video thumbnail', async () => {
    stubApi({ 'GET /helps/list': () => jsonResponse(200, [intro]) });
    renderPage(<SettingsPage />, '/settings?tab=helps', superAuth());

    const row = await rowOf('Primeros pasos');
    expect(within(row).getByText('abc123')).toBeTruthy();
    expect(within(row).getByText('Cómo empezar')).toBeTruthy();
    expect(row.querySelector('img')?.getAttribute('src')).toBe(
      'https://img.youtube.com/vi/abc123/mqdefault.jpg',
    );
  });

  it('creates a help, keeping only the code of a pasted YouTube address', async () => {
    let body: Record<string, unknown> = {};
    stubApi({
      'GET /helps/list': () => jsonResponse(200, []),
      'POST /helps': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(201, { id: 2, ...body, ...stamps });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=helps', superAuth());

    await user.click(await screen.findByRole('button', { name: 'Agregar ayuda' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nueva ayuda' }));
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await dialog.findByText('Campo obligatorio')).toBeTruthy();

    await fill(user, dialog.getByRole('textbox', { name: 'Título' }), 'Conexiones');
    await fill(
      user,
      dialog.getByRole('textbox', { name: 'Código del video' }),
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=5',
    );
    await fill(user, dialog.getByRole('textbox', { name: 'Descripción' }), 'Conecte su número');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Ayuda guardada.')).toBeTruthy();
    expect(body).toEqual({
      title: 'Conexiones',
      video: 'dQw4w9WgXcQ',
      description: 'Conecte su número',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await table().findByText('Conexiones')).toBeTruthy();
  });

  it('edits and deletes a help after confirmation', async () => {
    let putBody: unknown;
    stubApi({
      'GET /helps/list': () => jsonResponse(200, [intro]),
      'PUT /helps/1': (init) => {
        putBody = JSON.parse(String(init.body));
        return jsonResponse(200, { ...intro, ...(putBody as object) });
      },
      'DELETE /helps/1': () => new Response(null, { status: 204 }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=helps', superAuth());

    await user.click(
      within(await rowOf('Primeros pasos')).getByRole('button', { name: 'Editar Primeros pasos' }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar ayuda' }));
    const title = dialog.getByRole('textbox', { name: 'Título' });
    await refill(user, title, 'Inicio');
    await user.click(dialog.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ayuda guardada.')).toBeTruthy();
    expect(putBody).toEqual({ title: 'Inicio', video: 'abc123', description: 'Cómo empezar' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(
      within(await rowOf('Inicio')).getByRole('button', { name: 'Eliminar Inicio' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText('Ayuda eliminada.')).toBeTruthy();
    expect(await screen.findByText('No hay ayudas registradas.')).toBeTruthy();
  });
});

describe('videoCodeOf', () => {
  it('reads the code from every common YouTube address and leaves a code alone', () => {
    expect(videoCodeOf('https://youtu.be/dQw4w9WgXcQ?si=x')).toBe('dQw4w9WgXcQ');
    expect(videoCodeOf('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(videoCodeOf('https://youtube.com/shorts/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(videoCodeOf(' dQw4w9WgXcQ ')).toBe('dQw4w9WgXcQ');
  });
});
