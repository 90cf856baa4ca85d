import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser, type User } from '../../test/user-event';
import {
  makeAnnouncement,
  pageOf,
  receiveAnnouncementEvent,
  requestsOf,
} from './announcements.fixtures';
import { AnnouncementsPopover } from './announcements-popover';

const badge = () => screen.getByTestId('announcements-badge');
const button = () => screen.getByTestId('announcements-button');

const openPopover = async (user: User) => {
  await user.click(button());
  return within(await screen.findByTestId('announcements-popover'));
};

describe('announcements popover', () => {
  it('counts the active announcements and lists them newest first with priority and date', async () => {
    stubApi({
      'GET /announcements': () =>
        pageOf([
          makeAnnouncement({
            title: 'Mantenimiento programado',
            priority: 1,
            createdAt: '2025-03-12T15:00:00.000Z',
          }),
          makeAnnouncement({
            title: 'Nueva función',
            priority: 2,
            createdAt: '2025-03-05T15:00:00.000Z',
          }),
        ]),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());

    await waitFor(() => expect(badge().textContent).toBe('2'));
    expect(button().getAttribute('aria-label')).toBe('Anuncios: 2 activos');

    const popover = await openPopover(user);
    const items = popover.getAllByRole('button');
    expect(items.map((item) => item.textContent)).toEqual([
      'Mantenimiento programado12/03/2025',
      'Nueva función05/03/2025',
    ]);
    expect(within(items[0]).getByRole('img', { name: 'Alta' })).toBeTruthy();
    expect(within(items[1]).getByRole('img', { name: 'Media' })).toBeTruthy();
  });

  it('opens an announcement in the viewer with its line breaks and image', async () => {
    stubApi({
      'GET /announcements': () =>
        pageOf([
          makeAnnouncement({
            title: 'Mantenimiento programado',
            text: 'El sábado a las 22:00.\nDuración: 2 horas.',
            mediaName: 'aviso.png',
            mediaUrl: 'http://localhost:8080/uploads/1/abc.png?expires=1&sig=x',
          }),
        ]),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());

    const popover = await openPopover(user);
    await user.click(await popover.findByRole('button', { name: /Mantenimiento programado/ }));

    const viewer = within(await screen.findByRole('dialog', { name: 'Mantenimiento programado' }));
    const text = viewer.getByTestId('announcement-viewer-text');
    expect(text.textContent).toBe('El sábado a las 22:00.\nDuración: 2 horas.');
    expect(getComputedStyle(text).whiteSpace).toBe('pre-line');
    expect(viewer.getByRole('img', { name: 'aviso.png' }).getAttribute('src')).toBe(
      'http://localhost:8080/uploads/1/abc.png?expires=1&sig=x',
    );

    await user.click(viewer.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('follows live creates, updates and deletes without reloading', async () => {
    const older = makeAnnouncement({ title: 'Anterior', createdAt: '2025-03-01T10:00:00.000Z' });
    stubApi({ 'GET /announcements': () => pageOf([older]) });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());
    await waitFor(() => expect(badge().textContent).toBe('1'));

    const created = makeAnnouncement({
      title: 'Mantenimiento programado',
      createdAt: '2025-03-20T10:00:00.000Z',
    });
    await receiveAnnouncementEvent({ action: 'create', record: created });
    expect(badge().textContent).toBe('2');
    const popover = await openPopover(user);
    expect(popover.getAllByRole('button').map((item) => item.textContent)).toEqual([
      'Mantenimiento programado20/03/2025',
      'Anterior01/03/2025',
    ]);

    await receiveAnnouncementEvent({
      action: 'update',
      record: { ...created, title: 'Mantenimiento' },
    });
    expect(popover.getByText('Mantenimiento')).toBeTruthy();
    expect(popover.queryByText('Mantenimiento programado')).toBeNull();

    // A non-super user stops seeing an announcement once it is made inactive.
    await receiveAnnouncementEvent({ action: 'update', record: { ...older, status: false } });
    expect(popover.queryByText('Anterior')).toBeNull();
    expect(badge().textContent).toBe('1');

    await receiveAnnouncementEvent({ action: 'delete', id: created.id });
    expect(await popover.findByText('No hay anuncios.')).toBeTruthy();
    expect(button().getAttribute('aria-label')).toBe('Anuncios: 0 activos');
  });

  it('ignores an inactive announcement created for non-super users', async () => {
    stubApi({ 'GET /announcements': () => pageOf([]) });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Anuncios: 0 activos'));

    await receiveAnnouncementEvent({
      action: 'create',
      record: makeAnnouncement({ title: 'Borrador', status: false }),
    });

    const popover = await openPopover(user);
    expect(popover.getByText('No hay anuncios.')).toBeTruthy();
  });

  it('shows super users the inactive ones too but counts only the active', async () => {
    stubApi({
      'GET /announcements': () =>
        pageOf([
          makeAnnouncement({ title: 'Publicado' }),
          makeAnnouncement({ title: 'Borrador', status: false }),
        ]),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth({ user: { super: true } }));
    await waitFor(() => expect(badge().textContent).toBe('1'));

    const popover = await openPopover(user);
    expect(popover.getByText('Publicado')).toBeTruthy();
    expect(popover.getByText(/Inactivo/)).toBeTruthy();

    await receiveAnnouncementEvent({
      action: 'update',
      record: makeAnnouncement({ id: 999, title: 'Otro borrador', status: false }),
    });
    expect(popover.getByText('Otro borrador')).toBeTruthy();
    expect(badge().textContent).toBe('1');
  });

  it('loads the next page when the list is scrolled near its end', async () => {
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(1000);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    const first = Array.from({ length: 20 }, (_, index) =>
      makeAnnouncement({ title: `Primero ${index + 1}` }),
    );
    const fetchMock = stubApi({
      'GET /announcements': ({ url }) =>
        url.searchParams.get('pageNumber') === '2'
          ? pageOf([makeAnnouncement({ title: 'Del final' })], false, 21)
          : pageOf(first, true, 21),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());
    await waitFor(() => expect(badge().textContent).toBe('20+'));

    const popover = await openPopover(user);
    const list = popover.getByTestId('announcements-popover-list');
    list.scrollTop = 520;
    list.dispatchEvent(new Event('scroll'));
    expect(await popover.findByText('Del final')).toBeTruthy();

    const pages = requestsOf(fetchMock)
      .filter((call) => call.path === '/announcements')
      .map((call) => call.query.pageNumber);
    expect(pages).toEqual(['1', '2']);
    expect(badge().textContent).toBe('21');
  });

  it('says so inside the popover when the list cannot load, without a toast', async () => {
    stubApi({
      'GET /announcements': () =>
        jsonResponse(500, { error: 'ERR_INTERNAL_SERVER_ERROR', message: 'boom' }),
    });
    const user = setupUser();
    renderPage(<AnnouncementsPopover />, '/tickets', makeAuth());

    const popover = await openPopover(user);
    expect(await popover.findByText('No se pudieron cargar los anuncios.')).toBeTruthy();
    expect(screen.queryByText('Ocurrió un error inesperado. Intente más tarde.')).toBeNull();
  });
});
