import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { campaignSettingsBody, type CampaignSettingsList } from '@atendi/shared';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, refill, setupUser, type User } from '../../test/user-event';
import { CampaignsConfigPage } from './campaigns-config-page';

const PATH = '/campaigns-config';

// What the server stores from a POST: the list of the keys sent, each value as JSON text.
const listOf = (settings: Record<string, unknown>): CampaignSettingsList =>
  Object.entries(settings).map(([key, value]) => ({
    key: key as CampaignSettingsList[number]['key'],
    value: JSON.stringify(value),
  }));

const select = async (user: User, label: string, option: string) => {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
};

const keywordChips = () =>
  ['STOP', 'SALIR', 'BAJA', 'PARAR', 'NO MOLESTAR'].filter((word) => screen.queryByText(word));

// SPEC §2: the campaign routes exist only with the local cshow flag (and a plan with campaigns).
beforeEach(() => window.localStorage.setItem('cshow', 'true'));

describe('campaign settings page', () => {
  it('shows the defaults when nothing was saved yet', async () => {
    stubApi({ 'GET /campaign-settings': () => jsonResponse(200, []) });
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Configuración de campañas' }),
    ).toBeTruthy();
    const interval = await screen.findByRole('combobox', { name: 'Intervalo entre mensajes' });
    expect(interval.textContent).toBe('20 segundos');
    expect(screen.getByRole('combobox', { name: 'Intervalo mayor' }).textContent).toBe(
      'Después de 20 mensajes',
    );
    expect(screen.getByRole('combobox', { name: 'Duración del intervalo mayor' }).textContent).toBe(
      '60 segundos',
    );
    expect(screen.getByText('Aún no hay variables.')).toBeTruthy();
    expect(keywordChips()).toEqual(['STOP', 'SALIR', 'BAJA', 'PARAR']);
    // How variables are written, the built-in ones, and what an opt-out word does.
    expect(screen.getByText(/por ejemplo \{\{clave\}\}/)).toBeTruthy();
    for (const name of ['firstName', 'name', 'greeting', 'hora'])
      expect(screen.getByText(`{{${name}}}`)).toBeTruthy();
    expect(screen.getByText(/no vuelve a recibir campañas/)).toBeTruthy();
    // What whoever opts out is told, instead of the chatbot's menu.
    expect(
      (screen.getByRole('textbox', { name: 'Mensaje de confirmación de baja' }) as HTMLInputElement)
        .value,
    ).toBe('Listo, ya no te enviaremos mensajes de nuestras campañas.');
    expect(screen.getByText(/en lugar del menú del chatbot/)).toBeTruthy();
    // Each WhatsApp Web number: up to 200 campaign messages a day, paced at random, warmed up.
    expect(
      (screen.getByRole('spinbutton', { name: 'Tope diario por número' }) as HTMLInputElement)
        .value,
    ).toBe('200');
    for (const name of ['Pausas aleatorias', 'Calentamiento de números nuevos'])
      expect((screen.getByRole('switch', { name }) as HTMLInputElement).checked).toBe(true);

    // The options the SPEC allows, labelled.
    const user = setupUser();
    await user.click(screen.getByRole('combobox', { name: 'Intervalo mayor' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'No usar',
      'Después de 1 mensaje',
      'Después de 5 mensajes',
      'Después de 10 mensajes',
      'Después de 15 mensajes',
      'Después de 20 mensajes',
      'Después de 30 mensajes',
      'Después de 40 mensajes',
      'Después de 60 mensajes',
      'Después de 80 mensajes',
      'Después de 100 mensajes',
      'Después de 120 mensajes',
    ]);
  });

  it('shows what was saved before', async () => {
    stubApi({
      'GET /campaign-settings': () =>
        jsonResponse(
          200,
          listOf({
            messageInterval: 5,
            longerIntervalAfter: 0,
            greaterInterval: 30,
            variables: [{ key: 'tienda', value: 'Acme Centro' }],
            optOutKeywords: ['BASTA'],
          }),
        ),
    });
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());

    expect(
      (await screen.findByRole('combobox', { name: 'Intervalo entre mensajes' })).textContent,
    ).toBe('5 segundos');
    expect(screen.getByRole('combobox', { name: 'Intervalo mayor' }).textContent).toBe('No usar');
    expect(screen.getByRole('combobox', { name: 'Duración del intervalo mayor' }).textContent).toBe(
      '30 segundos',
    );
    const row = screen.getByRole('group', { name: 'Variable 1' });
    expect((within(row).getByRole('textbox', { name: 'Clave' }) as HTMLInputElement).value).toBe(
      'tienda',
    );
    expect((within(row).getByRole('textbox', { name: 'Valor' }) as HTMLInputElement).value).toBe(
      'Acme Centro',
    );
    expect(screen.getByText('BASTA')).toBeTruthy();
    expect(keywordChips()).toEqual([]);
  });

  it('saves the chosen values, flags a repeated key and sends it once', async () => {
    let sent: unknown;
    const fetchMock = stubApi({
      'GET /campaign-settings': () => jsonResponse(200, []),
      'POST /campaign-settings': (init) => {
        sent = JSON.parse(String(init.body));
        // The server's own check of the body.
        const { settings } = campaignSettingsBody.parse(sent);
        return jsonResponse(200, listOf(settings));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());
    await screen.findByRole('combobox', { name: 'Intervalo entre mensajes' });

    await select(user, 'Intervalo entre mensajes', '10 segundos');
    await select(user, 'Intervalo mayor', 'Después de 40 mensajes');
    await select(user, 'Duración del intervalo mayor', '120 segundos');

    const addVariable = screen.getByRole('button', { name: 'Agregar variable' });
    const fillRow = async (number: number, key: string, value: string) => {
      await user.click(addVariable);
      const row = await screen.findByRole('group', { name: `Variable ${number}` });
      await fill(user, within(row).getByRole('textbox', { name: 'Clave' }), key);
      await fill(user, within(row).getByRole('textbox', { name: 'Valor' }), value);
      return row;
    };
    const first = await fillRow(1, 'tienda', 'Acme Centro');
    await fillRow(2, 'cupon', 'INVIERNO10');
    const repeated = await fillRow(3, 'tienda', 'Otra tienda');
    expect(
      within(repeated).getByText('Clave repetida: se usará la primera y esta se ignorará'),
    ).toBeTruthy();
    expect(within(first).queryByText(/Clave repetida/)).toBeNull();

    await user.click(screen.getByRole('img', { name: 'Quitar SALIR' }));
    await fill(user, screen.getByRole('textbox', { name: 'Nueva palabra' }), 'no molestar');
    await user.keyboard('{Enter}');
    expect(keywordChips()).toEqual(['STOP', 'BAJA', 'PARAR']);
    expect(screen.getByText('no molestar')).toBeTruthy();
    await refill(
      user,
      screen.getByRole('textbox', { name: 'Mensaje de confirmación de baja' }),
      'Hecho: no te escribiremos más.',
    );

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración guardada')).toBeTruthy();
    expect(sent).toEqual({
      settings: {
        messageInterval: 10,
        longerIntervalAfter: 40,
        greaterInterval: 120,
        variables: [
          { key: 'tienda', value: 'Acme Centro' },
          { key: 'cupon', value: 'INVIERNO10' },
        ],
        optOutKeywords: ['STOP', 'BAJA', 'PARAR', 'no molestar'],
        optOutMessage: 'Hecho: no te escribiremos más.',
        // The limits of each WhatsApp Web number, left as they were (the defaults).
        dailyCap: 200,
        randomPacing: true,
        warmUp: true,
      },
    });
    // The form now shows what the server kept: the repeated key is gone.
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Variable 3' })).toBeNull());
    expect(callsOf(fetchMock).filter((call) => call.includes('/campaign-settings'))).toEqual([
      'GET /campaign-settings',
      'POST /campaign-settings',
    ]);
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('sets the limits of each WhatsApp Web number, checking the daily cap first', async () => {
    let sent: unknown;
    let posts = 0;
    stubApi({
      'GET /campaign-settings': () => jsonResponse(200, listOf({ dailyCap: 500, warmUp: false })),
      'POST /campaign-settings': (init) => {
        posts += 1;
        sent = JSON.parse(String(init.body));
        const { settings } = campaignSettingsBody.parse(sent);
        return jsonResponse(200, listOf(settings));
      },
    });
    const user = setupUser();
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());

    const cap = (await screen.findByRole('spinbutton', {
      name: 'Tope diario por número',
    })) as HTMLInputElement;
    expect(
      screen.getByRole('heading', { level: 2, name: 'Límites por número (WhatsApp Web/Baileys)' }),
    ).toBeTruthy();
    expect(cap.value).toBe('500');
    const pacing = screen.getByRole('switch', { name: 'Pausas aleatorias' }) as HTMLInputElement;
    const warmUp = screen.getByRole('switch', {
      name: 'Calentamiento de números nuevos',
    }) as HTMLInputElement;
    // Random pauses were never saved: the default, on. Warm-up was turned off.
    expect(pacing.checked).toBe(true);
    expect(warmUp.checked).toBe(false);
    // What each one does, and that the Cloud API goes by Meta's tier instead.
    expect(screen.getByText(/en 24 horas\. 0: sin límite\./)).toBeTruthy();
    expect(screen.getByText(/entre la mitad y una vez y media el intervalo/)).toBeTruthy();
    expect(
      screen.getByText(
        'Un número vinculado hace menos de 10 días empieza con 20 mensajes el primer día y duplica cada día.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(/siguen el nivel de mensajería que Meta da a cada número/),
    ).toBeTruthy();

    await refill(user, cap, '20000');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escriba un número entero de 0 a 10.000')).toBeTruthy();
    await user.clear(cap);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Escriba un número entero de 0 a 10.000')).toBeTruthy();
    expect(posts).toBe(0);

    // 0: no cap at all.
    await fill(user, cap, '0');
    await user.click(pacing);
    await user.click(warmUp);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración guardada')).toBeTruthy();
    expect(posts).toBe(1);
    expect(sent).toMatchObject({ settings: { dailyCap: 0, randomPacing: false, warmUp: true } });
    expect(screen.queryByText('Escriba un número entero de 0 a 10.000')).toBeNull();
    expect(cap.value).toBe('0');
  });

  it('checks variable keys before saving and shows a refusal as a toast', async () => {
    let posts = 0;
    stubApi({
      'GET /campaign-settings': () => jsonResponse(200, []),
      'POST /campaign-settings': () => {
        posts += 1;
        return jsonResponse(403, { error: 'ERR_NO_PERMISSION', message: 'No permission' });
      },
    });
    const user = setupUser();
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());
    await screen.findByRole('combobox', { name: 'Intervalo entre mensajes' });

    await user.click(screen.getByRole('button', { name: 'Agregar variable' }));
    const row = await screen.findByRole('group', { name: 'Variable 1' });
    const key = within(row).getByRole('textbox', { name: 'Clave' });
    await fill(user, key, 'mi clave');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await within(row).findByText('Solo letras, números y _')).toBeTruthy();
    expect(posts).toBe(0);

    await user.clear(key);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await within(row).findByText('Campo obligatorio')).toBeTruthy();
    expect(posts).toBe(0);

    await fill(user, key, 'mi_clave');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('No tiene permiso para acceder a este recurso.')).toBeTruthy();
    expect(posts).toBe(1);
    expect(screen.queryByText('Configuración guardada')).toBeNull();
  });

  it('refuses a repeated opt-out word', async () => {
    stubApi({ 'GET /campaign-settings': () => jsonResponse(200, []) });
    const user = setupUser();
    renderPage(<CampaignsConfigPage />, PATH, makeAuth());

    await fill(user, await screen.findByRole('textbox', { name: 'Nueva palabra' }), 'stop');
    await user.click(screen.getByRole('button', { name: 'Agregar palabra' }));
    expect(await screen.findByText('Esa palabra ya está en la lista')).toBeTruthy();
    expect(keywordChips()).toEqual(['STOP', 'SALIR', 'BAJA', 'PARAR']);
  });
});
