import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { campaignMessageKeys, type CampaignView } from '@atendi/shared';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import {
  bodyOf,
  campaignsOf,
  cellTexts,
  makeCampaign,
  optionRoutes,
  rowOf,
} from './campaigns-page.fixtures';
import { CampaignsPage } from './campaigns-page';
import { dateInput, setDate, shownDateTime } from '../../test/date-fields';

const MINUTE_MS = 60 * 1000;

// A whole minute some days ahead: what a datetime-local input can hold.
const inDays = (days: number) => {
  const date = new Date(Date.now() + days * 24 * 60 * MINUTE_MS);
  date.setSeconds(0, 0);
  return date;
};

const openNew = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Nueva campaña' }));
  return screen.findByRole('dialog', { name: 'Nueva campaña' });
};

const pick = async (user: User, dialog: HTMLElement, field: string, option: string) => {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
};

const messageBox = (dialog: HTMLElement, slot: number) =>
  within(dialog).getByRole('textbox', { name: `Mensaje ${slot}` });

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('campaign dialog', () => {
  it('creates a scheduled campaign and then lets a file be attached to it', async () => {
    let sent: Record<string, unknown> | undefined;
    const when = inDays(3);
    const created = makeCampaign({
      id: 9,
      name: 'Promo marzo',
      status: 'PROGRAMADA',
      message1: 'Hola {{firstName}}, use {{cupon}}',
      scheduledAt: when.toISOString(),
      whatsappId: 2,
      whatsapp: { id: 2, name: 'Ventas' },
      contactListId: 5,
      contactList: { id: 5, name: 'Clientes VIP' },
    });
    const fetchMock = stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, created);
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await openNew(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Promo marzo');
    await pick(user, dialog, 'Lista de contactos', 'Clientes VIP');
    // No tag: the "none" entry is chosen from the start.
    expect(within(dialog).getByRole('combobox', { name: 'Etiqueta' }).textContent).toBe('Ninguna');
    await pick(user, dialog, 'Conexión', 'Ventas');
    expect(within(dialog).queryByRole('combobox', { name: 'Plantilla de WhatsApp' })).toBeNull();
    setDate('Fecha de envío', shownDateTime(when), within(dialog));
    // Before the first save there is nothing to attach a file to.
    expect(within(dialog).getByText('Guarde la campaña para adjuntarle un archivo.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Adjuntar archivo' })).toBeNull();

    // The variable chips write into the message being edited.
    await fill(user, messageBox(dialog, 1), 'Hola ');
    await user.click(within(dialog).getByRole('button', { name: '{{firstName}}' }));
    await user.click(messageBox(dialog, 1));
    await user.paste(', use ');
    // The company's own variables (GET /campaign-settings) come beside the built-in ones.
    await user.click(within(dialog).getByRole('button', { name: '{{cupon}}' }));
    expect((messageBox(dialog, 1) as HTMLTextAreaElement).value).toBe(
      'Hola {{firstName}}, use {{cupon}}',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(sent).toEqual({
      name: 'Promo marzo',
      message1: 'Hola {{firstName}}, use {{cupon}}',
      message2: '',
      message3: '',
      message4: '',
      message5: '',
      confirmation: false,
      confirmationMessage1: '',
      confirmationMessage2: '',
      confirmationMessage3: '',
      confirmationMessage4: '',
      confirmationMessage5: '',
      scheduledAt: when.toISOString(),
      whatsappId: 2,
      contactListId: 5,
      tagListId: null,
      fileListId: null,
      // Not a Cloud API connection: no template.
      templateId: null,
      templateParams: { header: [], body: [] },
    });
    // The dialog stays, now editing the saved campaign, which can take a file.
    const editing = await screen.findByRole('dialog', { name: 'Editar campaña' });
    expect(within(editing).getByRole('button', { name: 'Adjuntar archivo' })).toBeTruthy();
    await user.click(within(editing).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cellTexts(await rowOf('Promo marzo')).slice(0, 4)).toEqual([
      'Promo marzo',
      'Programada',
      'Clientes VIP',
      'Ventas',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('asks for a message, and for a connection and an audience to schedule', async () => {
    const fetchMock = stubApi({ ...optionRoutes, 'GET /campaigns': campaignsOf([]) });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await openNew(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Promo');
    // The error is on message 1, so the form goes back to its tab.
    await user.click(within(dialog).getByRole('tab', { name: 'Mensaje 3' }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(await within(dialog).findByText('Escriba al menos un mensaje')).toBeTruthy();
    expect(
      within(dialog).getByRole('tab', { name: 'Mensaje 1' }).getAttribute('aria-selected'),
    ).toBe('true');

    setDate('Fecha de envío', shownDateTime(inDays(2)), within(dialog));
    await fill(user, messageBox(dialog, 1), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(
      await within(dialog).findByText('Elija la conexión para programar la campaña'),
    ).toBeTruthy();
    expect(
      within(dialog).getByText(
        'Elija una lista de contactos o una etiqueta para programar la campaña',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByText('Escriba al menos un mensaje')).toBeNull();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);
  });

  it('asks for a confirmation message when asking for confirmation', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeCampaign({ id: 9, name: 'Encuesta' }));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await openNew(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Encuesta');
    await pick(user, dialog, 'Etiqueta', 'Mayoristas');
    await fill(user, messageBox(dialog, 1), 'Gracias');
    expect(within(dialog).queryByRole('textbox', { name: 'Mensaje de confirmación 1' })).toBeNull();
    await user.click(within(dialog).getByRole('switch', { name: 'Pedir confirmación' }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(
      await within(dialog).findByText('Escriba al menos un mensaje de confirmación'),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('tab', { name: 'Mensaje 2' }));
    await fill(
      user,
      within(dialog).getByRole('textbox', { name: 'Mensaje de confirmación 2' }),
      '¿Quiere recibir la encuesta?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      message1: 'Gracias',
      confirmation: true,
      confirmationMessage2: '¿Quiere recibir la encuesta?',
      tagListId: 7,
      contactListId: null,
      scheduledAt: null,
    });
  });

  it('shows a field the API refused under it', async () => {
    stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': () =>
        jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'Invalid body',
          fields: { name: ['Too big: expected string to have <=50 characters'] },
        }),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await openNew(user);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Promo');
    await fill(user, messageBox(dialog, 1), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(await within(dialog).findByText('Debe tener entre 2 y 50 caracteres')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Nueva campaña' })).toBeTruthy();
  });

  it('edits every field of a campaign scheduled more than an hour ahead', async () => {
    let sent: Record<string, unknown> | undefined;
    const campaign = makeCampaign({
      id: 4,
      name: 'Promo',
      status: 'PROGRAMADA',
      scheduledAt: new Date(Date.now() + 2 * 60 * MINUTE_MS).toISOString(),
      whatsappId: 2,
      whatsapp: { id: 2, name: 'Ventas' },
      contactListId: 5,
      contactList: { id: 5, name: 'Clientes VIP' },
    });
    stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([campaign]),
      'PUT /campaigns/4': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...campaign, name: 'Promo abril', scheduledAt: null });
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(within(await rowOf('Promo')).getByRole('button', { name: 'Editar Promo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar campaña' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await refill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Promo abril');
    // Unscheduled again: back to inactive.
    setDate('Fecha de envío', '', within(dialog));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toMatchObject({
      name: 'Promo abril',
      scheduledAt: null,
      whatsappId: 2,
      contactListId: 5,
      tagListId: null,
    });
    expect(await screen.findByText('Promo abril')).toBeTruthy();
  });

  it('only shows a campaign that starts within the hour', async () => {
    const campaign = makeCampaign({
      id: 4,
      name: 'Promo',
      status: 'PROGRAMADA',
      scheduledAt: new Date(Date.now() + 30 * MINUTE_MS).toISOString(),
      whatsappId: 2,
      whatsapp: { id: 2, name: 'Ventas' },
      contactListId: 5,
      contactList: { id: 5, name: 'Clientes VIP' },
    });
    const fetchMock = stubApi({ ...optionRoutes, 'GET /campaigns': campaignsOf([campaign]) });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(within(await rowOf('Promo')).getByRole('button', { name: 'Ver Promo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Campaña' });
    expect(
      within(dialog).getByText(
        'La campaña empieza en menos de una hora: ya no se puede modificar.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Nombre' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(messageBox(dialog, 1)).toHaveProperty('disabled', true);
    expect((messageBox(dialog, 1) as HTMLTextAreaElement).value).toBe('Hola {{firstName}}');
    expect(within(dialog).getByRole('combobox', { name: 'Conexión' }).textContent).toBe('Ventas');
    expect(
      within(dialog).getByRole('combobox', { name: 'Conexión' }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(within(dialog).getByRole('switch', { name: 'Pedir confirmación' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(dialog).queryByRole('button', { name: 'Guardar' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Adjuntar archivo' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsOf(fetchMock).some((call) => !call.startsWith('GET'))).toBe(false);
  });

  it('saves only the messages of a cancelled campaign', async () => {
    let sent: Record<string, unknown> | undefined;
    const campaign: CampaignView = makeCampaign({
      id: 6,
      name: 'Black Friday',
      status: 'CANCELADA',
      scheduledAt: new Date(Date.now() - 60 * MINUTE_MS).toISOString(),
      whatsappId: 2,
      whatsapp: { id: 2, name: 'Ventas' },
      contactListId: 5,
      contactList: { id: 5, name: 'Clientes VIP' },
    });
    const fetchMock = stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([campaign]),
      'PUT /campaigns/6': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, { ...campaign, message2: 'Última oportunidad' });
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Black Friday')).getByRole('button', { name: 'Editar Black Friday' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar campaña' });
    expect(
      within(dialog).getByText('La campaña está cancelada: solo se pueden cambiar sus mensajes.'),
    ).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Nombre' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(dateInput('Fecha de envío', within(dialog))).toHaveProperty('disabled', true);
    expect(within(dialog).queryByRole('button', { name: 'Adjuntar archivo' })).toBeNull();

    await user.click(within(dialog).getByRole('tab', { name: 'Mensaje 2' }));
    expect(messageBox(dialog, 2)).toHaveProperty('disabled', false);
    await fill(user, messageBox(dialog, 2), 'Última oportunidad');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(Object.keys(sent ?? {}).sort()).toEqual([...campaignMessageKeys].sort());
    expect(sent).toMatchObject({ message1: 'Hola {{firstName}}', message2: 'Última oportunidad' });
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('attaches a file to a saved campaign and removes it', async () => {
    let uploaded: FormDataEntryValue | null = null;
    const campaign = makeCampaign({ id: 8, name: 'Catálogo' });
    const withMedia = {
      ...campaign,
      mediaName: 'catalogo.pdf',
      mediaUrl: 'https://files.example.com/catalogo.pdf',
    };
    const fetchMock = stubApi({
      ...optionRoutes,
      'GET /campaigns': campaignsOf([campaign]),
      'POST /campaigns/8/media-upload': (init) => {
        uploaded = (init.body as FormData).get('file');
        return jsonResponse(200, withMedia);
      },
      'DELETE /campaigns/8/media-upload': () => jsonResponse(200, campaign),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(
      within(await rowOf('Catálogo')).getByRole('button', { name: 'Editar Catálogo' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Editar campaña' });
    const file = new File(['%PDF'], 'catalogo.pdf', { type: 'application/pdf' });
    await user.upload(within(dialog).getByTestId('campaign-media-input'), file);

    expect(await screen.findByText('Archivo adjuntado.')).toBeTruthy();
    expect((uploaded as File | null)?.name).toBe('catalogo.pdf');
    expect(within(dialog).getByRole('link', { name: 'catalogo.pdf' }).getAttribute('href')).toBe(
      'https://files.example.com/catalogo.pdf',
    );

    await user.click(
      within(dialog).getByRole('button', { name: 'Quitar el archivo catalogo.pdf' }),
    );
    expect(await screen.findByText('Archivo quitado.')).toBeTruthy();
    expect(within(dialog).queryByText('catalogo.pdf')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Adjuntar archivo' })).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('DELETE /campaigns/8/media-upload');
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });
});
