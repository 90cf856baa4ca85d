import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeAuth, stubApi as stubShellApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import type { HelpVideo } from '../../lib/help-videos';
import { HelpsPage } from './helps-page';

const stamps = { createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
const helps: HelpVideo[] = [
  { id: 1, title: 'Primeros pasos', video: 'abc123', description: 'Cómo empezar', ...stamps },
  { id: 2, title: 'Conexiones', video: 'def456', description: 'Conecte su número', ...stamps },
];

const stubApi = (list: HelpVideo[]) =>
  stubShellApi({ 'GET /helps/list': () => jsonResponse(200, list) });

describe('help centre', () => {
  it('shows a card per video with its thumbnail, and the count in the title', async () => {
    stubApi(helps);
    // Every user may watch the help videos.
    renderPage(<HelpsPage />, '/helps', makeAuth({ user: { profile: 'user' } }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Ayuda (2)' })).toBeTruthy();
    const card = screen.getByRole('button', { name: /Primeros pasos/ });
    expect(within(card).getByText('Cómo empezar')).toBeTruthy();
    expect(card.querySelector('img')?.getAttribute('src')).toBe(
      'https://img.youtube.com/vi/abc123/mqdefault.jpg',
    );
  });

  it('plays a video in a modal that Escape closes', async () => {
    stubApi(helps);
    const user = setupUser();
    renderPage(<HelpsPage />, '/helps', makeAuth());

    await user.click(await screen.findByRole('button', { name: /Conexiones/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Conexiones' });
    const player = within(dialog).getByTitle('Conexiones');
    expect(player.tagName).toBe('IFRAME');
    expect(player.getAttribute('src')).toBe('https://www.youtube.com/embed/def456');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when there are no videos', async () => {
    stubApi([]);
    renderPage(<HelpsPage />, '/helps', makeAuth());

    expect(await screen.findByRole('heading', { level: 1, name: 'Ayuda (0)' })).toBeTruthy();
    expect(screen.getByText('Todavía no hay videos de ayuda.')).toBeTruthy();
  });
});
