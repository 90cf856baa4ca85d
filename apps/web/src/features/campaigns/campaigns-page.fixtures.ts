import { act, screen, within } from '@testing-library/react';
import { campaignViewSchema, type CampaignEvent, type CampaignView } from '@atendi/shared';
import { getSocket } from '../../api/socket';
import type { FakeSocket } from '../../test/fake-socket';
import { jsonResponse } from '../../test/fixtures';

// A campaign as the API answers it, checked against the shared schema so a fixture is always a
// possible answer.
export const makeCampaign = (overrides: Partial<CampaignView> = {}): CampaignView => {
  const campaign: CampaignView = {
    id: 1,
    companyId: 1,
    name: 'Bienvenida',
    status: 'INATIVA',
    message1: 'Hola {{firstName}}',
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
    scheduledAt: null,
    completedAt: null,
    whatsappId: null,
    whatsapp: null,
    contactListId: null,
    contactList: null,
    tagListId: null,
    tag: null,
    fileListId: null,
    fileList: null,
    mediaName: null,
    mediaUrl: null,
    templateId: null,
    template: null,
    templateParams: { header: [], body: [] },
    report: {
      recipients: 0,
      valid: 0,
      pending: 0,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      optedOut: 0,
      awaitingConfirmation: 0,
      confirmed: 0,
    },
    held: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
  campaignViewSchema.parse(campaign);
  return campaign;
};

export const campaignsOf =
  (records: CampaignView[], hasMore = false) =>
  () =>
    jsonResponse(200, { records, count: records.length, hasMore });

// What the form picks from.
export const optionRoutes = {
  'GET /contact-lists/list': () =>
    jsonResponse(200, [
      {
        id: 5,
        name: 'Clientes VIP',
        companyId: 1,
        contactsCount: 12,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]),
  'GET /tags/list': () =>
    jsonResponse(200, [{ id: 7, name: 'Mayoristas', color: '#f00', kanban: 0 }]),
  'GET /whatsapp': () =>
    jsonResponse(200, [
      { id: 2, name: 'Ventas', status: 'CONNECTED' },
      { id: 3, name: 'Soporte', status: 'CONNECTED' },
    ]),
  'GET /files': () => jsonResponse(200, { files: [], hasMore: false }),
  'GET /campaign-settings': () =>
    jsonResponse(200, [
      { key: 'variables', value: JSON.stringify([{ key: 'cupon', value: 'X1' }]) },
    ]),
};

export const bodyOf = (init: RequestInit) =>
  JSON.parse(String(init.body)) as Record<string, unknown>;

export const receiveCampaignEvent = (event: CampaignEvent, companyId = 1) =>
  act(() => {
    (getSocket() as unknown as FakeSocket).receive(`company-${companyId}-campaign`, event);
  });

export const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

export const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
