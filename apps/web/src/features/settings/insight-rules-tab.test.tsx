import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InsightRuleView, TagOption } from '@atendi/shared';
import { unknownApiCalls } from '../../test/api-routes';
import { callsOf, jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { SettingsPage } from './settings-page';

const tags: TagOption[] = [
  { id: 1, name: 'Riesgo', color: '#d32f2f', kanban: 0 },
  { id: 2, name: 'Nuevo', color: '#1976d2', kanban: 1 },
  { id: 3, name: 'Urgente', color: '#f57c00', kanban: 1 },
];

const rule = (overrides: Partial<InsightRuleView> = {}): InsightRuleView => ({
  id: 5,
  name: 'Cliente molesto',
  enabled: true,
  condition: { sentiments: ['negativo'], finalOnly: false, minOrderTotal: null },
  action: { type: 'tag', tagId: 1 },
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const openTab = () => renderPage(<SettingsPage />, '/settings?tab=insight', makeAuth());
const rowOf = async (text: string) =>
  (
    await within(await screen.findByRole('table', { name: 'Reglas de insight' })).findByText(text)
  ).closest('tr') as HTMLTableRowElement;

describe('insight rules tab', () => {
  it('lists the rules with their condition and action, and adds a lane rule', async () => {
    const sent: unknown[] = [];
    let rules = [rule()];
    const fetchMock = stubApi({
      'GET /insight-rules': () => jsonResponse(200, rules),
      'GET /tags/list': () => jsonResponse(200, tags),
      'POST /insight-rules': (init) => {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        const created = rule({ id: 6, ...body });
        rules = [...rules, created];
        return jsonResponse(201, created);
      },
    });
    const user = setupUser();
    openTab();

    const row = within(await rowOf('Cliente molesto'));
    expect(row.getByText('Negativo')).toBeTruthy();
    expect(await row.findByText('Etiqueta «Riesgo»')).toBeTruthy();
    expect(row.getByText('Activa')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Agregar regla' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Nueva regla de insight' }));
    await fill(user, dialog.getByRole('textbox', { name: 'Nombre' }), 'Pedidos grandes terminados');
    // Any sentiment: none checked.
    await user.click(dialog.getByRole('checkbox', { name: 'Negativo' }));
    await user.click(dialog.getByRole('switch', { name: 'Solo cuando la conversación terminó' }));
    await fill(user, dialog.getByRole('textbox', { name: 'Total del pedido desde' }), '1500');
    await user.click(dialog.getByRole('combobox', { name: 'Acción' }));
    await user.click(await screen.findByRole('option', { name: 'Mover la tarjeta en el kanban' }));
    // Only the kanban lanes can take a card.
    await user.click(dialog.getByRole('combobox', { name: 'Columna del kanban' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Nuevo', 'Urgente']);
    await user.click(screen.getByRole('option', { name: 'Urgente' }));
    await user.click(dialog.getByRole('button', { name: 'Agregar regla' }));

    expect(await screen.findByText('Regla guardada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      {
        name: 'Pedidos grandes terminados',
        enabled: true,
        condition: { sentiments: [], finalOnly: true, minOrderTotal: 1500 },
        action: { type: 'lane', tagId: 3 },
      },
    ]);
    const added = within(await rowOf('Pedidos grandes terminados'));
    expect(
      added.getByText('Cualquier sentimiento · conversación terminada · total ≥ 1500'),
    ).toBeTruthy();
    expect(added.getByText('Columna «Urgente»')).toBeTruthy();
    expect(unknownApiCalls(fetchMock)).toEqual([]);
  });

  it('edits a rule, says under the tag why the API refused it, and deletes a rule', async () => {
    const sent: unknown[] = [];
    const fetchMock = stubApi({
      'GET /insight-rules': () => jsonResponse(200, [rule()]),
      'GET /tags/list': () => jsonResponse(200, tags),
      'PUT /insight-rules/5': (init) => {
        sent.push(JSON.parse(String(init.body)));
        return jsonResponse(400, {
          error: 'ERR_VALIDATION',
          message: 'The tag does not exist',
          fields: { 'action.tagId': ['ERR_NOT_FOUND'] },
        });
      },
      'DELETE /insight-rules/5': () => new Response(null, { status: 204 }),
    });
    const user = setupUser();
    openTab();

    await rowOf('Cliente molesto');
    await user.click(screen.getByRole('button', { name: 'Editar Cliente molesto' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Editar regla de insight' }));
    expect(dialog.getByRole('checkbox', { name: 'Negativo' })).toHaveProperty('checked', true);
    expect(dialog.getByRole('combobox', { name: 'Etiqueta' }).textContent).toBe('Riesgo');
    await user.click(dialog.getByRole('switch', { name: 'Regla activa' }));
    await user.click(dialog.getByRole('button', { name: 'Editar' }));
    expect(await dialog.findByText('Revise los datos del formulario.')).toBeTruthy();
    expect(sent).toEqual([
      {
        name: 'Cliente molesto',
        enabled: false,
        condition: { sentiments: ['negativo'], finalOnly: false, minOrderTotal: null },
        action: { type: 'tag', tagId: 1 },
      },
    ]);
    await user.click(dialog.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Eliminar Cliente molesto' }));
    const confirm = within(await screen.findByRole('dialog'));
    expect(confirm.getByText('¿Eliminar la regla «Cliente molesto»?')).toBeTruthy();
    await user.click(confirm.getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Regla eliminada.')).toBeTruthy();
    expect(callsOf(fetchMock)).toContain('DELETE /insight-rules/5');
  });
});
