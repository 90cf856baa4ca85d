import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { unknownApiCalls } from '../../test/api-routes';
import {
  callsOf,
  jsonResponse,
  makeAuth,
  makeTemplate,
  stubApi,
  templateListOf,
} from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser, type User } from '../../test/user-event';
import { bodyOf, campaignsOf, makeCampaign, optionRoutes, rowOf } from './campaigns-page.fixtures';
import { CampaignsPage } from './campaigns-page';
import { setDate, shownDateTime } from '../../test/date-fields';

const MINUTE_MS = 60 * 1000;

const inDays = (days: number) => {
  const date = new Date(Date.now() + days * 24 * 60 * MINUTE_MS);
  date.setSeconds(0, 0);
  return date;
};

// A Cloud API connection (id 4) beside a QR one (id 2).
const connectionRoutes = {
  'GET /whatsapp': () =>
    jsonResponse(200, [
      { id: 2, name: 'Ventas', status: 'CONNECTED', provider: 'beta' },
      { id: 4, name: 'Meta', status: 'CONNECTED', provider: 'cloud' },
    ]),
};

const orderReady = makeTemplate({
  id: 1,
  name: 'pedido_listo',
  headerFormat: 'TEXT',
  headerText: 'Pedido {{1}}',
  bodyText: 'Hola {{1}}, su pedido {{2}} está listo.',
  footerText: 'Atendi',
});
const catalogue = makeTemplate({
  id: 2,
  name: 'catalogo',
  headerFormat: 'IMAGE',
  bodyText: 'Vea el catálogo nuevo',
});
const pending = makeTemplate({ id: 3, name: 'promo', status: 'PENDING', bodyText: 'Promo' });

const templateRoutes = (templates = [orderReady, catalogue, pending]) => ({
  'GET /whatsapp/4/templates': () => templateListOf(templates, '2025-03-05T18:30:00.000Z'),
});

const openNew = async (user: User) => {
  await user.click(await screen.findByRole('button', { name: 'Nueva campaña' }));
  return screen.findByRole('dialog', { name: 'Nueva campaña' });
};

const pick = async (user: User, dialog: HTMLElement, field: string, option: string) => {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
};

const templateSelect = (dialog: HTMLElement) =>
  within(dialog).getByRole('combobox', { name: 'Plantilla de WhatsApp' });

const describedBy = (field: HTMLElement) =>
  document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

const param = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole('textbox', { name }) as HTMLTextAreaElement;

const preview = (dialog: HTMLElement) =>
  within(dialog).getByRole('figure', { name: 'Vista previa' });

// A new campaign named "Pedidos" on the Cloud API connection, scheduled some days ahead.
const startCloudCampaign = async (user: User, when = inDays(2)) => {
  const dialog = await openNew(user);
  await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Pedidos');
  await pick(user, dialog, 'Lista de contactos', 'Clientes VIP');
  await pick(user, dialog, 'Conexión', 'Meta');
  setDate('Fecha de envío', shownDateTime(when), within(dialog));
  return dialog;
};

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('campaign dialog on a Cloud API connection', () => {
  // The longest flow of the web tests (4 s alone on a quiet machine): twice the project's limit.
  it('picks an approved template, fills its values with variables, previews and sends them', async () => {
    let sent: Record<string, unknown> | undefined;
    const when = inDays(3);
    const fetchMock = stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes(),
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeCampaign({ id: 9, name: 'Pedidos' }));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await startCloudCampaign(user, when);
    expect(describedBy(templateSelect(dialog))).toBe(
      'Las conexiones de la API oficial de WhatsApp empiezan cada conversación con una plantilla aprobada: elíjala para programar la campaña.',
    );
    // Only approved templates are offered.
    await user.click(templateSelect(dialog));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Ninguna', 'pedido_listo (es_MX)', 'catalogo (es_MX)']);
    await user.click(screen.getByRole('option', { name: 'catalogo (es_MX)' }));
    // A file header takes the campaign's attachment, which needs the campaign saved first.
    expect(
      within(dialog).getByText(
        'El encabezado de esta plantilla muestra un archivo (imagen): adjunte uno a la campaña (después de guardarla).',
      ),
    ).toBeTruthy();
    expect(within(preview(dialog)).getByText('Encabezado: imagen')).toBeTruthy();

    await pick(user, dialog, 'Plantilla de WhatsApp', 'pedido_listo (es_MX)');
    // Without confirmation the template is the message: the message variants go away.
    expect(describedBy(templateSelect(dialog))).toBe(
      'Sin confirmación, la plantilla es el mensaje de la campaña: reemplaza a los mensajes 1 a 5.',
    );
    expect(within(dialog).queryByRole('textbox', { name: 'Mensaje 1' })).toBeNull();
    expect(within(dialog).queryByRole('tab', { name: 'Mensaje 1' })).toBeNull();
    expect(preview(dialog).textContent).toContain('Hola {{1}}, su pedido {{2}} está listo.');
    expect(within(preview(dialog)).getByText('Pedido {{1}}').tagName).toBe('STRONG');

    // The variable chips write into the value being edited.
    await fill(user, param(dialog, 'Encabezado {{1}}'), 'A-100');
    await user.click(param(dialog, '{{1}}'));
    await user.click(within(dialog).getByRole('button', { name: '{{firstName}}' }));
    await fill(user, param(dialog, '{{2}}'), 'número ');
    await user.click(within(dialog).getByRole('button', { name: '{{number}}' }));
    expect(param(dialog, '{{1}}').value).toBe('{{firstName}}');
    expect(param(dialog, '{{2}}').value).toBe('número {{number}}');
    expect(within(preview(dialog)).getByText('Pedido A-100').tagName).toBe('STRONG');
    expect(preview(dialog).textContent).toContain(
      'Hola {{firstName}}, su pedido número {{number}} está listo.',
    );
    expect(within(preview(dialog)).getByText('Atendi').tagName).toBe('EM');

    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      name: 'Pedidos',
      whatsappId: 4,
      contactListId: 5,
      scheduledAt: when.toISOString(),
      confirmation: false,
      message1: '',
      templateId: 1,
      templateParams: { header: ['A-100'], body: ['{{firstName}}', 'número {{number}}'] },
    });
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  }, 20_000);

  it('asks for a template and its values to schedule, and shows the fields the API refused', async () => {
    let answer = () =>
      jsonResponse(400, {
        error: 'ERR_VALIDATION',
        message: 'The template cannot be sent as it is',
        fields: {
          templateId: ['The template is PAUSED: only approved templates can be sent'],
          'templateParams.body.1': ['Campo Obligatorio'],
        },
      });
    const fetchMock = stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes(),
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': () => answer(),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await startCloudCampaign(user);
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    await waitFor(() =>
      expect(describedBy(templateSelect(dialog))).toBe(
        'Elija una plantilla aprobada: las conexiones de la API oficial empiezan las conversaciones con una plantilla',
      ),
    );

    await pick(user, dialog, 'Plantilla de WhatsApp', 'pedido_listo (es_MX)');
    await fill(user, param(dialog, 'Encabezado {{1}}'), 'A-100');
    await fill(user, param(dialog, '{{1}}'), '{{name}}');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    await waitFor(() =>
      expect(describedBy(param(dialog, '{{2}}'))).toBe('Escriba el valor de este parámetro'),
    );
    expect(describedBy(param(dialog, '{{1}}'))).toBeFalsy();
    expect(callsOf(fetchMock).some((call) => call.startsWith('POST'))).toBe(false);

    // The API may still refuse (the template was paused meanwhile): each error on its input.
    await fill(user, param(dialog, '{{2}}'), 'B-200');
    await waitFor(() => expect(describedBy(param(dialog, '{{2}}'))).toBeFalsy());
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    await waitFor(() =>
      expect(describedBy(templateSelect(dialog))).toBe(
        'Esta plantilla no se puede enviar: elija una plantilla aprobada de esta conexión',
      ),
    );
    expect(describedBy(param(dialog, '{{2}}'))).toBe('Escriba el valor de este parámetro');
    expect(screen.getByRole('dialog', { name: 'Nueva campaña' })).toBeTruthy();

    answer = () => jsonResponse(201, makeCampaign({ id: 9, name: 'Pedidos' }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
  });

  it('with confirmation, the template asks for it and the message follows the answer', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes(),
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeCampaign({ id: 9, name: 'Pedidos' }));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await startCloudCampaign(user);
    await pick(user, dialog, 'Plantilla de WhatsApp', 'catalogo (es_MX)');
    await user.click(within(dialog).getByRole('switch', { name: 'Pedir confirmación' }));
    expect(describedBy(templateSelect(dialog))).toBe(
      'Con confirmación, la plantilla pide la confirmación; el mensaje se envía cuando el contacto responde (no hacen falta mensajes de confirmación).',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Mensaje 1' })).toBeTruthy();
    expect(within(dialog).queryByRole('textbox', { name: 'Mensaje de confirmación 1' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await within(dialog).findByText('Escriba al menos un mensaje')).toBeTruthy();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Mensaje 1' }), 'Aquí está');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      confirmation: true,
      message1: 'Aquí está',
      confirmationMessage1: '',
      templateId: 2,
      templateParams: { header: [], body: [] },
    });
  });

  it('drops the template when another connection is chosen', async () => {
    let sent: Record<string, unknown> | undefined;
    stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes(),
      'GET /campaigns': campaignsOf([]),
      'POST /campaigns': (init) => {
        sent = bodyOf(init);
        return jsonResponse(201, makeCampaign({ id: 9, name: 'Pedidos' }));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await startCloudCampaign(user);
    await pick(user, dialog, 'Plantilla de WhatsApp', 'pedido_listo (es_MX)');
    await fill(user, param(dialog, '{{1}}'), 'Ana');
    await pick(user, dialog, 'Conexión', 'Ventas');

    expect(within(dialog).queryByRole('combobox', { name: 'Plantilla de WhatsApp' })).toBeNull();
    expect(within(dialog).queryByRole('figure', { name: 'Vista previa' })).toBeNull();
    await fill(user, within(dialog).getByRole('textbox', { name: 'Mensaje 1' }), 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));

    expect(await screen.findByText('Campaña guardada.')).toBeTruthy();
    expect(sent).toMatchObject({
      whatsappId: 2,
      message1: 'Hola',
      templateId: null,
      templateParams: { header: [], body: [] },
    });
  });

  it('syncs the templates of a connection that has no approved one', async () => {
    let syncs = 0;
    const fetchMock = stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes([pending]),
      'GET /campaigns': campaignsOf([]),
      'POST /whatsapp/4/templates/sync': () => {
        syncs += 1;
        return syncs === 1
          ? jsonResponse(400, {
              error: 'ERR_VALIDATION',
              message: 'Set the WhatsApp Business Account id',
              fields: { cloudBusinessAccountId: ['Required'] },
            })
          : templateListOf([pending, orderReady], '2025-03-06T10:00:00.000Z');
      },
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    const dialog = await startCloudCampaign(user);
    await waitFor(() =>
      expect(describedBy(templateSelect(dialog))).toBe(
        'Esta conexión no tiene plantillas aprobadas. Sincronícelas con el botón de al lado.',
      ),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Sincronizar plantillas' }));
    expect(
      await screen.findByText(
        'Indique el ID de la cuenta de WhatsApp Business en la conexión (pestaña Cloud API) para leer sus plantillas.',
      ),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Sincronizar plantillas' }));
    expect(await screen.findByText('Se sincronizaron 2 plantillas.')).toBeTruthy();
    await pick(user, dialog, 'Plantilla de WhatsApp', 'pedido_listo (es_MX)');
    expect(param(dialog, '{{1}}')).toBeTruthy();
    expect(callsOf(fetchMock).filter((call) => call.endsWith('/sync'))).toHaveLength(2);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('shows the template of a campaign that can no longer change, read-only', async () => {
    const campaign = makeCampaign({
      id: 4,
      name: 'Pedidos',
      status: 'PROGRAMADA',
      message1: '',
      scheduledAt: new Date(Date.now() + 30 * MINUTE_MS).toISOString(),
      whatsappId: 4,
      whatsapp: { id: 4, name: 'Meta' },
      contactListId: 5,
      contactList: { id: 5, name: 'Clientes VIP' },
      templateId: 1,
      template: { id: 1, name: 'pedido_listo', language: 'es_MX' },
      templateParams: { header: ['A-100'], body: ['{{firstName}}', 'B-200'] },
    });
    const fetchMock = stubApi({
      ...optionRoutes,
      ...connectionRoutes,
      ...templateRoutes(),
      'GET /campaigns': campaignsOf([campaign]),
    });
    const user = setupUser();
    renderPage(<CampaignsPage />, '/campaigns', makeAuth());

    await user.click(within(await rowOf('Pedidos')).getByRole('button', { name: 'Ver Pedidos' }));
    const dialog = await screen.findByRole('dialog', { name: 'Campaña' });
    const select = templateSelect(dialog);
    await waitFor(() => expect(select.textContent).toBe('pedido_listo (es_MX)'));
    expect(select.getAttribute('aria-disabled')).toBe('true');
    expect(await within(dialog).findByRole('textbox', { name: '{{1}}' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(param(dialog, '{{1}}').value).toBe('{{firstName}}');
    expect(param(dialog, 'Encabezado {{1}}')).toHaveProperty('disabled', true);
    expect(param(dialog, '{{2}}')).toHaveProperty('disabled', true);
    expect(preview(dialog).textContent).toContain(
      'Hola {{firstName}}, su pedido B-200 está listo.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Sincronizar plantillas' })).toBeNull();
    for (const chip of within(dialog).getAllByRole('button', { name: /^\{\{/ }))
      expect(chip.getAttribute('aria-disabled')).toBe('true');
    expect(callsOf(fetchMock).some((call) => !call.startsWith('GET'))).toBe(false);
  });
});
