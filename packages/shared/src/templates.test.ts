import { describe, expect, it } from 'vitest';
import { campaignSchema } from './campaigns';
import {
  REPLY_WINDOW_MS,
  renderTemplate,
  replyWindowAt,
  templateParamIssues,
  templateParamNames,
  templateShape,
} from './templates';

describe('message templates', () => {
  it('names positional parameters by number and named ones as they first appear', () => {
    expect(templateParamNames('{{2}} y {{10}}, luego {{1}} y otra vez {{2}}')).toEqual([
      '1',
      '2',
      '10',
    ]);
    expect(
      templateParamNames('Hola {{first_name}}, tu pedido {{ order }} de {{first_name}}'),
    ).toEqual(['first_name', 'order']);
    expect(templateParamNames(undefined)).toEqual([]);
  });

  it('reads the header, body, footer and buttons, and renders the text a send makes', () => {
    const shape = templateShape([
      { type: 'HEADER', format: 'TEXT', text: 'Oferta para {{1}}' },
      { type: 'BODY', text: 'Usa {{1}} antes del {{2}}' },
      { type: 'FOOTER', text: 'Responde BAJA' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Ver' }, { type: 'QUICK_REPLY' }] },
    ]);
    expect(shape).toMatchObject({
      headerFormat: 'TEXT',
      headerParams: ['1'],
      bodyParams: ['1', '2'],
      buttons: ['Ver'],
    });
    expect(renderTemplate(shape, { header: ['Ana'], body: ['NOV25', '30/11'] })).toBe(
      '*Oferta para Ana*\n\nUsa NOV25 antes del 30/11\n\n_Responde BAJA_',
    );
    // A value not given yet keeps its placeholder (the form's preview).
    expect(renderTemplate(shape, { header: [], body: ['X'] })).toContain('antes del {{2}}');
    expect(templateParamIssues(shape, { header: ['Ana'], body: ['  ', 'x'] })).toEqual([
      { path: 'templateParams.body.0', message: 'Campo Obligatorio' },
    ]);
    const image = templateShape([
      { type: 'header', format: 'image' },
      { type: 'BODY', text: 'Hola' },
    ]);
    expect(image).toMatchObject({ headerFormat: 'IMAGE', headerText: '', headerParams: [] });
    expect(renderTemplate(image, { header: [], body: [] })).toBe('Hola');
  });

  it('opens the window for 24 hours after the contact writes', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const wrote = new Date(now.getTime() - REPLY_WINDOW_MS + 60_000);
    expect(replyWindowAt(wrote, now)).toEqual({
      open: true,
      closesAt: '2026-11-25T12:01:00.000Z',
    });
    expect(replyWindowAt(new Date(now.getTime() - REPLY_WINDOW_MS), now).open).toBe(false);
    expect(replyWindowAt(null, now)).toEqual({ open: false, closesAt: null });
  });

  it('lets a template stand for the message of a campaign, not for the one after a confirmation', () => {
    const base = { name: 'Promo', templateId: 3 };
    expect(campaignSchema.safeParse(base).success).toBe(true);
    const confirming = campaignSchema.safeParse({ ...base, confirmation: true });
    expect(confirming.success).toBe(false);
    expect(confirming.error?.issues.map((i) => i.path.join('.'))).toEqual(['message1']);
    expect(
      campaignSchema.safeParse({ ...base, confirmation: true, message1: 'Gracias' }).success,
    ).toBe(true);
    expect(campaignSchema.safeParse({ name: 'Promo' }).success).toBe(false);
  });
});
