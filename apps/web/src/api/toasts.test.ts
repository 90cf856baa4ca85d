import { describe, expect, it } from 'vitest';
import { ApiError } from './http-client';
import { errorText } from './toasts';

describe('error texts', () => {
  it('names who holds the other open ticket, and its queue (SPEC §8)', () => {
    const held = new ApiError({
      status: 409,
      code: 'ERR_OTHER_OPEN_TICKET',
      message: 'conflict',
      details: { user: { name: 'Ana' }, queue: { name: 'Ventas' } },
    });
    expect(errorText(held)).toBe(
      'El contacto ya tiene un ticket abierto, atendido por Ana en la cola Ventas.',
    );
    const waiting = new ApiError({
      status: 409,
      code: 'ERR_OTHER_OPEN_TICKET',
      message: 'conflict',
      details: { user: null, queue: null },
    });
    expect(errorText(waiting)).toBe('Ya hay un ticket abierto para este contacto.');
  });

  it('names who took the ticket first when an accept loses the race', () => {
    const taken = new ApiError({
      status: 409,
      code: 'ERR_TICKET_TAKEN',
      message: 'conflict',
      details: { user: { id: 3, name: 'Ana' } },
    });
    expect(errorText(taken)).toBe('Ana ya atiende este ticket.');
  });

  it('tells a closed 24-hour window from one that never opened (Cloud API)', () => {
    const closed = (closesAt: string | null) =>
      new ApiError({
        status: 409,
        code: 'ERR_WAPP_WINDOW_CLOSED',
        message: 'window closed',
        details: { closesAt },
      });
    expect(errorText(closed('2025-03-04T09:05:00.000Z'))).toBe(
      'Han pasado más de 24 horas desde el último mensaje del contacto: WhatsApp solo permite enviar una plantilla aprobada.',
    );
    expect(errorText(closed(null))).toBe(
      'El contacto aún no escribió a este número: WhatsApp solo permite iniciar la conversación con una plantilla aprobada.',
    );
  });

  it('falls back to the server’s message for an unknown code', () => {
    expect(
      errorText(new ApiError({ status: 400, code: 'ERR_SOMETHING_NEW', message: 'Nope' })),
    ).toBe('Nope');
  });
});
