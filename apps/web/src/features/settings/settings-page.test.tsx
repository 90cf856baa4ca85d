import { act, screen, waitFor, within } from '@testing-library/react';
import { settingDefaults, type ApiToken } from '@atendi/shared';
import { describe, expect, it } from 'vitest';
import { getApiUrl } from '../../api/runtime-config';
import { getSocket } from '../../api/socket';
import { formatDateTime } from '../../lib/dates';
import { setDate } from '../../test/date-fields';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse, makeAuth, mockApi, stubApi as stubShellApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { setupUser } from '../../test/user-event';
import { SettingsPage } from './settings-page';

type Routes = Parameters<typeof mockApi>[0];

const settingsWith = (overrides: Record<string, string> = {}) =>
  Object.entries({ ...settingDefaults, ...overrides }).map(([key, value]) => ({ key, value }));

const stubApi = (settings = settingsWith(), extra: Routes = {}) =>
  stubShellApi({ 'GET /settings/': () => jsonResponse(200, settings), ...extra });

const apiToken = (overrides: Partial<ApiToken> = {}): ApiToken => ({
  id: 1,
  name: 'CRM',
  prefix: 'atd_AbC123',
  scopes: ['tickets:write', 'reports:read'],
  expiresAt: null,
  lastUsedAt: '2026-11-29T10:00:00.000Z',
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: { id: 1, name: 'Ana Admin' },
  ...overrides,
});

const hoursForm = () => within(screen.getByRole('form', { name: 'Horarios' }));
const tabNames = () => screen.getAllByRole('tab').map((tab) => tab.textContent);

// Typing into MUI fields is slow on a busy two-core machine; the budget is generous on purpose.
describe('settings page', () => {
  it('shows every option to an admin and saves a change with a success toast', async () => {
    const saved: unknown[] = [];
    stubApi(settingsWith(), {
      'PUT /settings/userRating': (init) => {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return jsonResponse(200, { key: 'userRating', value: body.value });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth());

    const rating = await screen.findByRole('combobox', { name: 'Evaluaciones' });
    expect(rating.textContent).toBe('Deshabilitadas');
    for (const label of [
      'Gestión de horarios de atención',
      'Ignorar mensajes de grupos',
      'Aceptar llamadas',
      'Tipo de chatbot',
      'Saludo al aceptar el ticket',
      'Mensaje de transferencia',
      'Saludo con una sola cola',
      'Menú lateral al iniciar',
      'Verificación en dos pasos',
      'Sesiones de cada usuario',
      'Insight IA en vivo',
    ]) {
      expect(screen.getByRole('combobox', { name: label })).toBeTruthy();
    }
    // Public sign-up is a platform switch: super users only.
    expect(screen.queryByRole('combobox', { name: 'Registro público de empresas' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Dos pasos para superusuarios' })).toBeNull();
    expect(tabNames()).toEqual([
      'Opciones',
      'Auditoría',
      'Inicio de sesión único',
      'API',
      'Webhooks',
      'Exportaciones',
      'Reglas de insight',
    ]);

    await user.click(rating);
    await user.click(await screen.findByRole('option', { name: 'Habilitadas' }));

    expect(await screen.findByText('Configuración guardada.')).toBeTruthy();
    expect(saved).toEqual([{ value: 'enabled' }]);
    expect(screen.getByRole('combobox', { name: 'Evaluaciones' }).textContent).toBe('Habilitadas');
  });

  it('offers transcribing voice notes where the plan has AI, saying it spends its tokens', async () => {
    const saved: unknown[] = [];
    stubApi(settingsWith(), {
      'PUT /settings/transcribeAudio': (init) => {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return jsonResponse(200, { key: 'transcribeAudio', value: body.value });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth({ plan: { useOpenAi: true } }));

    const transcribe = await screen.findByRole('combobox', { name: 'Transcribir notas de voz' });
    expect(transcribe.textContent).toBe('Deshabilitado');
    expect(screen.getByText(/Usa el proveedor de IA de la empresa y consume tokens/)).toBeTruthy();
    await user.click(transcribe);
    await user.click(await screen.findByRole('option', { name: 'Habilitado' }));
    expect(await screen.findByText('Configuración guardada.')).toBeTruthy();
    expect(saved).toEqual([{ value: 'enabled' }]);
  });

  it('lets an admin keep one session per device, so the desktop and the phone app stay signed in', async () => {
    const saved: unknown[] = [];
    stubApi(settingsWith(), {
      'PUT /settings/singleSession': (init) => {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return jsonResponse(200, { key: 'singleSession', value: body.value });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth());

    const sessions = await screen.findByRole('combobox', { name: 'Sesiones de cada usuario' });
    expect(sessions.textContent).toBe('Una sola');
    await user.click(sessions);
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Una sola',
      'Una por dispositivo',
      'Sin límite',
    ]);
    await user.click(screen.getByRole('option', { name: 'Una por dispositivo' }));
    expect(await screen.findByText('Configuración guardada.')).toBeTruthy();
    expect(saved).toEqual([{ value: 'device' }]);
    expect(sessions.textContent).toBe('Una por dispositivo');
  });

  it('hides transcribing voice notes on a plan without AI', async () => {
    stubApi();
    renderPage(<SettingsPage />, '/settings', makeAuth({ plan: { useOpenAi: false } }));
    await screen.findByRole('combobox', { name: 'Evaluaciones' });
    expect(screen.queryByRole('combobox', { name: 'Transcribir notas de voz' })).toBeNull();
  });

  it("saves the company's country, chosen by its name in the app's language", async () => {
    const saved: unknown[] = [];
    stubApi(settingsWith(), {
      'PUT /settings/country': (init) => {
        const body = JSON.parse(String(init.body));
        saved.push(body);
        return jsonResponse(200, { key: 'country', value: body.value });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth());

    const country = await screen.findByRole('combobox', { name: 'País de la empresa' });
    expect(country.textContent).toBe('Ninguno');
    await user.click(country);
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options[0]).toBe('Ninguno');
    expect(options).toEqual(expect.arrayContaining(['México', 'Argentina', 'Brasil', 'Colombia']));
    // In alphabetical order of the names, not of the codes.
    expect(options.indexOf('Alemania')).toBeLessThan(options.indexOf('Argentina'));
    await user.click(screen.getByRole('option', { name: 'México' }));

    expect(await screen.findByText('Configuración guardada.')).toBeTruthy();
    expect(saved).toEqual([{ value: 'MX' }]);
    expect(screen.getByRole('combobox', { name: 'País de la empresa' }).textContent).toBe('México');
  });

  it('puts the old value back and reports a refused change', async () => {
    stubApi(settingsWith(), {
      'PUT /settings/call': () =>
        jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'No permission' }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth());

    await user.click(await screen.findByRole('combobox', { name: 'Aceptar llamadas' }));
    await user.click(await screen.findByRole('option', { name: 'Aceptar' }));

    expect(await screen.findByText('No tiene permiso para acceder a este recurso.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Aceptar llamadas' }).textContent).toBe(
        'No aceptar',
      ),
    );
  });

  it('gives super users the sign-up switch and the platform tabs', async () => {
    stubApi();
    renderPage(<SettingsPage />, '/settings', makeAuth({ user: { super: true } }));

    expect(
      await screen.findByRole('combobox', { name: 'Registro público de empresas' }),
    ).toBeTruthy();
    expect(tabNames()).toEqual([
      'Opciones',
      'Auditoría',
      'Inicio de sesión único',
      'API',
      'Webhooks',
      'Exportaciones',
      'Reglas de insight',
      'Empresas',
      'Planes',
      'Ayudas',
    ]);
  });

  it('shows the schedules tab only while business hours are per company', async () => {
    stubApi(settingsWith({ scheduleType: 'company' }), {
      'PUT /settings/scheduleType': () =>
        jsonResponse(200, { key: 'scheduleType', value: 'queue' }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings', makeAuth());

    await screen.findByRole('combobox', { name: 'Evaluaciones' });
    expect(tabNames()).toEqual([
      'Opciones',
      'Horarios',
      'Auditoría',
      'Inicio de sesión único',
      'API',
      'Webhooks',
      'Exportaciones',
      'Reglas de insight',
    ]);

    await user.click(screen.getByRole('combobox', { name: 'Gestión de horarios de atención' }));
    await user.click(await screen.findByRole('option', { name: 'Por cola' }));

    await waitFor(() =>
      expect(tabNames()).toEqual([
        'Opciones',
        'Auditoría',
        'Inicio de sesión único',
        'API',
        'Webhooks',
        'Exportaciones',
        'Reglas de insight',
      ]),
    );
  });

  it('edits the company service hours with an HH:MM mask and saves them', async () => {
    let body: { schedules: { weekdayEn: string; startTime: string; endTime: string }[] } | null =
      null;
    stubApi(settingsWith({ scheduleType: 'company' }), {
      'GET /companies/1': () =>
        jsonResponse(200, {
          id: 1,
          schedules: [
            { weekday: 'Lunes', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
          ],
        }),
      'PUT /companies/1/schedules': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, { id: 1, ...body });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=schedules', makeAuth());

    const monday = await screen.findByRole('textbox', { name: 'Hora de inicio Lunes' });
    expect((monday as HTMLInputElement).value).toBe('08:00');
    // The weekday itself is read-only.
    expect(
      (screen.getAllByRole('textbox', { name: 'Día de la semana' })[0] as HTMLInputElement)
        .readOnly,
    ).toBe(true);

    const tuesdayStart = screen.getByRole('textbox', { name: 'Hora de inicio Martes' });
    await user.type(tuesdayStart, '0930');
    expect((tuesdayStart as HTMLInputElement).value).toBe('09:30');
    await user.type(screen.getByRole('textbox', { name: 'Hora de fin Martes' }), '17a00');
    await user.click(hoursForm().getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Horarios guardados.')).toBeTruthy();
    expect(body!.schedules).toHaveLength(7);
    expect(body!.schedules[0]).toMatchObject({ weekdayEn: 'monday', startTime: '08:00' });
    expect(body!.schedules[1]).toMatchObject({
      weekday: 'Martes',
      weekdayEn: 'tuesday',
      startTime: '09:30',
      endTime: '17:00',
    });
    expect(body!.schedules[6]).toMatchObject({ weekdayEn: 'sunday', startTime: '', endTime: '' });
  });

  it('changes the company’s time zone from a list of IANA zones', async () => {
    let body: { timeZone: string } | null = null;
    stubApi(settingsWith(), {
      'GET /companies/1': () =>
        jsonResponse(200, { id: 1, schedules: [], timeZone: 'America/Bogota' }),
      'PUT /companies/1/time-zone': (init) => {
        body = JSON.parse(String(init.body));
        return jsonResponse(200, { id: 1, schedules: [], ...body });
      },
    });
    const user = setupUser();
    // On the options tab, whatever the business hours.
    renderPage(<SettingsPage />, '/settings', makeAuth());

    const form = within(await screen.findByRole('form', { name: 'Zona horaria' }));
    const zone = form.getByRole('combobox', { name: 'Zona horaria' });
    expect((zone as HTMLInputElement).value).toBe('America/Bogota');
    expect(form.getByRole('button', { name: 'Guardar' })).toHaveProperty('disabled', true);
    await user.clear(zone);
    await user.type(zone, 'Santiago');
    await user.click(await screen.findByRole('option', { name: 'America/Santiago' }));
    await user.click(form.getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Zona horaria guardada.')).toBeTruthy();
    expect(body).toEqual({ timeZone: 'America/Santiago' });
  });

  it('shows a company with no hours saved the same default hours as a new queue', async () => {
    stubApi(settingsWith({ scheduleType: 'company' }), {
      'GET /companies/1': () => jsonResponse(200, { id: 1, schedules: [] }),
    });
    renderPage(<SettingsPage />, '/settings?tab=schedules', makeAuth());
    const hours = async (day: string) => [
      ((await screen.findByRole('textbox', { name: `Hora de inicio ${day}` })) as HTMLInputElement)
        .value,
      (screen.getByRole('textbox', { name: `Hora de fin ${day}` }) as HTMLInputElement).value,
    ];
    expect(await hours('Lunes')).toEqual(['08:00', '18:00']);
    expect(await hours('Viernes')).toEqual(['08:00', '18:00']);
    expect(await hours('Sábado')).toEqual(['08:00', '12:00']);
    // SPEC §9 writes a closed Sunday as 00:00 to 00:00.
    expect(await hours('Domingo')).toEqual(['00:00', '00:00']);
  });

  it('refuses an incomplete hour before saving', async () => {
    const fetchMock = stubApi(settingsWith({ scheduleType: 'company' }), {
      'GET /companies/1': () => jsonResponse(200, { id: 1, schedules: [] }),
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=schedules', makeAuth());

    const monday = await screen.findByRole('textbox', { name: 'Hora de inicio Lunes' });
    await user.clear(monday);
    await user.type(monday, '9');
    await user.click(hoursForm().getByRole('button', { name: 'Guardar' }));

    expect(await screen.findByText('Use el formato HH:MM')).toBeTruthy();
    const puts = fetchMock.mock.calls.filter(
      ([, init]) => (init as RequestInit | undefined)?.method === 'PUT',
    );
    expect(puts).toHaveLength(0);
  });

  it('shows the company’s audit log, filtered by action, and downloads it', async () => {
    const queries: string[] = [];
    stubApi(settingsWith(), {
      'GET /audit': ({ url }) => {
        queries.push(url.search);
        return jsonResponse(200, {
          entries: [
            {
              id: 2,
              companyId: 1,
              userId: 1,
              actor: 'ana@example.com',
              action: 'setting.updated',
              target: 'setting:userRating',
              detail: { value: 'enabled' },
              address: '192.0.2.1',
              createdAt: '2026-11-29T10:00:00.000Z',
            },
          ],
          hasMore: false,
        });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=audit', makeAuth());
    const table = await screen.findByRole('table', { name: 'Auditoría' });
    expect(within(table).getByText('Configuración cambiada')).toBeTruthy();
    expect(within(table).getByText('ana@example.com')).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Acción' }));
    await user.click(await screen.findByRole('option', { name: 'Usuario eliminado' }));
    await waitFor(() => expect(queries.at(-1)).toContain('action=user.deleted'));
  });

  it('sets up single sign-on, saying under the issuer why the provider was refused', async () => {
    const sent: Record<string, unknown>[] = [];
    const callbackUrl = 'http://localhost:8080/auth/sso/callback';
    stubApi(settingsWith(), {
      'GET /companies/1/sso': () => jsonResponse(200, { config: null, callbackUrl }),
      'PUT /companies/1/sso': (init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        if (sent.length === 1)
          return jsonResponse(424, {
            error: 'ERR_SSO_PROVIDER',
            message: 'The provider could not be reached',
            fields: {
              issuer: ["The provider's discovery failed: unexpected HTTP response status code"],
            },
          });
        const config = {
          ...body,
          domains: ['acme.com', 'acme.com.mx'],
          hasSecret: true,
          callbackUrl,
        };
        delete config.clientSecret;
        return jsonResponse(200, { config, callbackUrl });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=sso', makeAuth());
    const form = within(await screen.findByRole('form', { name: 'Inicio de sesión único' }));
    expect((form.getByLabelText('URL de retorno (redirect URI)') as HTMLInputElement).value).toBe(
      callbackUrl,
    );
    await user.type(form.getByLabelText('Emisor (issuer)'), 'https://sso.acme.com/realms/atendi');
    await user.type(form.getByLabelText('ID de cliente'), 'atendi');
    await user.type(form.getByLabelText('Dominios de correo'), 'acme.com, @Acme.com.mx');
    await user.click(form.getByRole('button', { name: 'Guardar' }));
    // A new setup needs the secret before anything is sent.
    expect(await form.findByText('El secreto es obligatorio')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.type(form.getByLabelText('Secreto del cliente'), 's3cret');
    await user.click(form.getByRole('button', { name: 'Guardar' }));
    expect(
      await form.findByText('El proveedor no respondió como un proveedor OpenID Connect.'),
    ).toBeTruthy();
    expect(form.getByTestId('sso-provider-reason').textContent).toContain('discovery failed');
    expect(sent[0]).toMatchObject({
      issuer: 'https://sso.acme.com/realms/atendi',
      clientId: 'atendi',
      clientSecret: 's3cret',
      domains: ['acme.com', '@Acme.com.mx'],
      enabled: true,
      createUsers: false,
      passwordLogin: true,
    });

    await user.click(form.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('SSO guardado.')).toBeTruthy();
    const saved = within(await screen.findByRole('form', { name: 'Inicio de sesión único' }));
    expect(await saved.findByText('Guardado. Déjelo vacío para mantenerlo.')).toBeTruthy();
    expect((saved.getByLabelText('Dominios de correo') as HTMLInputElement).value).toBe(
      'acme.com, acme.com.mx',
    );
    expect(saved.getByRole('button', { name: 'Quitar SSO' })).toBeTruthy();
  });

  it('lists the company’s API tokens with their scopes, expiry and last use', async () => {
    stubApi(settingsWith(), {
      'GET /api-tokens': () =>
        jsonResponse(200, {
          tokens: [
            apiToken(),
            apiToken({
              id: 2,
              name: 'Viejo',
              prefix: 'atd_Old999',
              scopes: ['contacts:read'],
              expiresAt: '2020-01-31T12:00:00.000Z',
              lastUsedAt: null,
              createdBy: null,
            }),
          ],
        }),
    });
    renderPage(<SettingsPage />, '/settings?tab=api', makeAuth());

    const table = await screen.findByRole('table', { name: 'API' });
    const [, crm, old] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(crm!).slice(0, 6)).toEqual([
      'CRM',
      'atd_AbC123…',
      'Tickets: escrituraInformes: lectura',
      'Nunca',
      formatDateTime('2026-11-29T10:00:00.000Z'),
      'Ana Admin',
    ]);
    expect(cells(old!).slice(0, 6)).toEqual([
      'Viejo',
      'atd_Old999…',
      'Contactos: lectura',
      '31/01/2020Vencido',
      'Nunca usado',
      '—',
    ]);
    expect(screen.getByRole('link', { name: 'Documentación de la API' }).getAttribute('href')).toBe(
      `${getApiUrl()}/docs`,
    );
    expect(screen.getByText('Authorization: Bearer atd_…')).toBeTruthy();
  });

  it('creates an API token with the highest scope of each area and shows it once', async () => {
    let tokens: ApiToken[] = [];
    const sent: unknown[] = [];
    stubApi(settingsWith(), {
      'GET /api-tokens': () => jsonResponse(200, { tokens }),
      'POST /api-tokens': (init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        const created = apiToken({ name: body.name, scopes: body.scopes, lastUsedAt: null });
        tokens = [created];
        return jsonResponse(201, { ...created, token: 'atd_AbC123secret' });
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=api', makeAuth());
    expect(await screen.findByText('Aún no hay tokens de API.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Nuevo token' }));
    const dialog = within(await screen.findByRole('dialog'));
    setDate('Vence', '31/01/2020', dialog);
    await user.click(dialog.getByRole('button', { name: 'Crear token' }));
    // At least one scope, said under the matrix, before anything is sent.
    expect(await dialog.findByText('Elija al menos un permiso')).toBeTruthy();
    expect(dialog.getByText('Campo obligatorio')).toBeTruthy();
    expect(dialog.getByText('Elija una fecha desde hoy')).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: 'Nombre' }), 'CRM');
    await user.click(dialog.getByRole('checkbox', { name: 'Escribir Tickets' }));
    // Writing includes reading.
    expect(dialog.getByRole('checkbox', { name: 'Leer Tickets' })).toHaveProperty('checked', true);
    await user.click(dialog.getByRole('checkbox', { name: 'Leer Informes' }));
    setDate('Vence', '31/12/2099', dialog);
    await user.click(dialog.getByRole('button', { name: 'Crear token' }));

    expect(await dialog.findByText(/no se mostrará de nuevo/)).toBeTruthy();
    expect(sent).toEqual([
      {
        name: 'CRM',
        scopes: ['tickets:write', 'reports:read'],
        // Through the whole chosen day.
        expiresAt: new Date(2099, 11, 31, 23, 59, 59, 999).toISOString(),
      },
    ]);
    expect((dialog.getByRole('textbox', { name: 'Token' }) as HTMLInputElement).value).toBe(
      'atd_AbC123secret',
    );

    await user.click(dialog.getByRole('button', { name: 'Listo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByDisplayValue('atd_AbC123secret')).toBeNull();
    // The list, asked again, has the new token (never the token itself).
    const table = screen.getByRole('table', { name: 'API' });
    expect(await within(table).findByText('CRM')).toBeTruthy();
    expect(within(table).getByText('Tickets: escritura')).toBeTruthy();
    expect(within(table).getByText('Nunca usado')).toBeTruthy();
    expect(within(table).queryByText(/secret/)).toBeNull();
  });

  it('revokes an API token after a confirmation', async () => {
    let tokens = [apiToken(), apiToken({ id: 2, name: 'Informes', prefix: 'atd_Rep456' })];
    const deleted: string[] = [];
    stubApi(settingsWith(), {
      'GET /api-tokens': () => jsonResponse(200, { tokens }),
      'DELETE /api-tokens/1': ({ url }) => {
        deleted.push(url.pathname);
        tokens = tokens.filter((token) => token.id !== 1);
        return jsonResponse(204);
      },
    });
    const user = setupUser();
    renderPage(<SettingsPage />, '/settings?tab=api', makeAuth());
    const table = await screen.findByRole('table', { name: 'API' });

    await user.click(await within(table).findByRole('button', { name: 'Revocar CRM' }));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('¿Revocar el token «CRM»?')).toBeTruthy();
    expect(deleted).toHaveLength(0);
    await user.click(confirm.getByRole('button', { name: 'Revocar' }));

    expect(await screen.findByText('Token revocado.')).toBeTruthy();
    expect(deleted).toEqual(['/api-tokens/1']);
    await waitFor(() => expect(within(table).queryByText('CRM')).toBeNull());
    expect(within(table).getByText('Informes')).toBeTruthy();
  });

  it('follows a setting another admin changed', async () => {
    stubApi();
    renderPage(<SettingsPage />, '/settings', makeAuth());
    await screen.findByRole('combobox', { name: 'Menú lateral al iniciar' });

    const socket = getSocket() as unknown as FakeSocket;
    act(() => {
      socket.receive('company-1-settings', {
        action: 'update',
        setting: { key: 'initialSideMenu', value: 'closed' },
      });
    });

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Menú lateral al iniciar' }).textContent).toBe(
        'Cerrado',
      ),
    );
  });

  it('tells a non-admin user that settings are for administrators', async () => {
    stubApi();
    renderPage(<SettingsPage />, '/settings', makeAuth({ user: { profile: 'user' } }));

    expect(
      await screen.findByText('Solo los administradores pueden cambiar las configuraciones.'),
    ).toBeTruthy();
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
