import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessageView, QuickMessageView } from '@atendi/shared';
import { jsonResponse, makeAuth, stubApi } from '../../test/fixtures';
import { renderPage } from '../../test/render-page';
import { fill, setupUser } from '../../test/user-event';
import { listOf, makeMessage, makeTicket, messagesOf, todayAt } from './tickets.fixtures';
import { TicketsPage } from './tickets-page';

// The real picker draws hundreds of emoji; one button stands in for it.
vi.mock('emoji-picker-react', () => ({
  default: ({ onEmojiClick }: { onEmojiClick: (data: { emoji: string }) => void }) => (
    <button type="button" onClick={() => onEmojiClick({ emoji: '😀' })}>
      pick 😀
    </button>
  ),
}));

const { encoders } = vi.hoisted(() => ({
  encoders: [] as { channels: number; sampleRate: number; kbps: number }[],
}));

// The encoder writes one byte per PCM sample, so the decoded length decides the MP3's size.
vi.mock('@breezystack/lamejs', () => ({
  Mp3Encoder: class {
    constructor(
      readonly channels: number,
      readonly sampleRate: number,
      readonly kbps: number,
    ) {
      encoders.push({ channels, sampleRate, kbps });
    }
    encodeBuffer(pcm: Int16Array) {
      return new Uint8Array(pcm.length);
    }
    flush() {
      return new Uint8Array(0);
    }
  },
}));

const ticket = makeTicket({ id: 7 });
const chatPath = `/tickets/${ticket.uuid}`;

type Sent = { json?: Record<string, unknown>; form?: FormData; key: string | null };

// The open chat of `ticket`; every POST /messages/7 is recorded, JSON or multipart.
const stubChat = (
  quickMessages: QuickMessageView[] = [],
  fail?: () => Response | Promise<Response>,
  files: Record<string, () => Response | Promise<Response>> = {},
) => {
  const sent: Sent[] = [];
  let nextId = 100;
  const fetchMock = stubApi({
    'GET /tickets': () => listOf([]),
    [`GET /tickets/u/${ticket.uuid}`]: () => jsonResponse(200, ticket),
    [`GET /messages/${ticket.id}`]: () => messagesOf(ticket, []),
    'GET /quick-messages/list': () => jsonResponse(200, quickMessages),
    ...files,
    [`POST /messages/${ticket.id}`]: (init) => {
      const key = new Headers(init.headers).get('Idempotency-Key');
      if (init.body instanceof FormData) sent.push({ form: init.body, key });
      else sent.push({ json: JSON.parse(String(init.body)), key });
      if (fail) return fail();
      const message: ChatMessageView = makeMessage({
        id: nextId++,
        ticketId: ticket.id,
        body: 'enviado',
        fromMe: true,
        createdAt: todayAt(10),
      });
      return jsonResponse(201, [message]);
    },
  });
  return { sent, fetchMock };
};

const input = () => screen.getByRole('textbox', { name: 'Mensaje' }) as HTMLTextAreaElement;

const openChat = async () => {
  window.localStorage.setItem('signOption', 'false');
  const user = setupUser();
  renderPage(<TicketsPage />, chatPath, makeAuth(), { route: '/tickets/:ticketId?' });
  await screen.findByPlaceholderText('Escriba un mensaje');
  return user;
};

const quickMessage = (overrides: Partial<QuickMessageView>): QuickMessageView => ({
  id: 1,
  shortcode: 'saludo',
  message: 'Hola',
  geral: true,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  isMedia: false,
  userId: 1,
  queueId: null,
  companyId: 1,
  createdAt: todayAt(8),
  updatedAt: todayAt(8),
  ...overrides,
});

describe('composer emoji', () => {
  it('inserts the chosen emoji at the caret', async () => {
    stubChat();
    const user = await openChat();
    const field = input();
    await fill(user, field, 'Hola mundo');
    field.setSelectionRange(4, 4);

    await user.click(screen.getByRole('button', { name: 'Emojis' }));
    // The picker is loaded on first use.
    await user.click(await screen.findByRole('button', { name: 'pick 😀' }));
    expect(field.value).toBe('Hola😀 mundo');
    await user.click(screen.getByRole('button', { name: 'pick 😀' }));
    expect(field.value).toBe('Hola😀😀 mundo');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'pick 😀' })).toBeNull());
    // The popover hands focus back when its closing transition ends, which may come a moment later.
    await waitFor(() => expect(document.activeElement).toBe(field));
    await user.keyboard('!');
    expect(field.value).toBe('Hola😀😀! mundo');
  });
});

describe('composer typing', () => {
  it('tells the contact the agent is writing once per few seconds, and that they stopped', async () => {
    // The clock is the subject: the pause that ends "typing…" is moved past at once.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { fetchMock } = stubChat();
    const typing: boolean[] = [];
    const chat = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url, init = {}) => {
      if (String(url).endsWith(`/messages/${ticket.id}/typing`)) {
        typing.push((JSON.parse(String(init.body)) as { typing: boolean }).typing);
        return new Response(null, { status: 204 });
      }
      return chat(url, init);
    });
    const user = await openChat();
    await fill(user, input(), 'Hola, ya le');
    await user.keyboard(' reviso');
    await waitFor(() => expect(typing).toEqual([true]));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(typing).toEqual([true, false]));
    await user.keyboard('!');
    await waitFor(() => expect(typing).toEqual([true, false, true]));
    vi.useRealTimers();
  });
});

describe('composer attachments', () => {
  const revoked: string[] = [];
  beforeEach(() => {
    revoked.length = 0;
    let n = 0;
    URL.createObjectURL = vi.fn(() => `blob:thumb-${(n += 1)}`);
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
  });

  const photo = () => new File([new Uint8Array(2048)], 'foto.png', { type: 'image/png' });
  const invoice = () =>
    new File([new Uint8Array(3 * 1024 * 1024)], 'factura.pdf', { type: 'application/pdf' });

  it('previews chosen files, removes one, and sends the rest as medias with the text as body', async () => {
    const { sent } = stubChat();
    const user = await openChat();
    const extra = new File(['x'], 'notas.txt', { type: 'text/plain' });
    await user.upload(screen.getByTestId('composer-file-input'), [photo(), invoice(), extra]);

    const panel = screen.getByRole('region', { name: 'Archivos adjuntos' });
    expect(within(panel).getByRole('img', { name: 'foto.png' })).toHaveProperty(
      'src',
      'blob:thumb-1',
    );
    expect(within(panel).getByText('factura.pdf')).toBeTruthy();
    expect(within(panel).getByText('3.0 MB')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Grabar audio' })).toBeNull();

    await user.click(within(panel).getByRole('button', { name: 'Quitar notas.txt' }));
    expect(within(panel).queryByText('notas.txt')).toBeNull();

    await fill(user, input(), 'Le envío los documentos');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toHaveLength(1));
    const form = sent[0].form!;
    expect(form.get('body')).toBe('Le envío los documentos');
    expect(form.getAll('medias').map((file) => (file as File).name)).toEqual([
      'foto.png',
      'factura.pdf',
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Archivos adjuntos' })).toBeNull(),
    );
    expect(input().value).toBe('');
    expect(revoked).toEqual(['blob:thumb-1']);
  });

  it('cancels every chosen file at once', async () => {
    stubChat();
    const user = await openChat();
    await user.upload(screen.getByTestId('composer-file-input'), [photo(), invoice()]);
    const panel = screen.getByRole('region', { name: 'Archivos adjuntos' });
    await user.click(within(panel).getByRole('button', { name: 'Cancelar' }));

    expect(screen.queryByRole('region', { name: 'Archivos adjuntos' })).toBeNull();
    expect(revoked).toEqual(['blob:thumb-1']);
    expect(screen.getByRole('button', { name: 'Grabar audio' })).toBeTruthy();
  });

  it('disables the input while sending, then keeps the files and toasts a refusal', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { sent } = stubChat([], () => new Promise<Response>((resolve) => (answer = resolve)));
    const user = await openChat();
    await user.upload(screen.getByTestId('composer-file-input'), [invoice()]);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));

    await waitFor(() => expect(input().disabled).toBe(true));
    expect(screen.getByRole('progressbar', { name: 'Enviando…' })).toBeTruthy();
    answer(jsonResponse(415, { error: 'ERR_UPLOAD_TYPE_NOT_ALLOWED', message: 'no' }));
    expect(await screen.findByText('Tipo de archivo no permitido')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(
      within(screen.getByRole('region', { name: 'Archivos adjuntos' })).getByText('factura.pdf'),
    ).toBeTruthy();
    await waitFor(() => expect(input().disabled).toBe(false));
  });
});

describe('composer sends once', () => {
  it('tries a message again with the key of its first try, and the next message with a new one', async () => {
    let failing = true;
    const { sent } = stubChat([], () =>
      // The connection drops before the answer: the first try may have reached the server.
      failing ? Promise.reject(new TypeError('Failed to fetch')) : jsonResponse(201, []),
    );
    const user = await openChat();
    await fill(user, input(), 'Hola, ¿cómo estás?');
    await user.keyboard('{Enter}');
    // The text comes back for another try.
    await waitFor(() => expect(input().value).toBe('Hola, ¿cómo estás?'));
    failing = false;
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toHaveLength(2));
    await waitFor(() => expect(input().value).toBe(''));
    await fill(user, input(), 'Otra cosa');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(sent).toHaveLength(3));

    const [first, retry, next] = sent;
    expect(first.key).toMatch(/^[0-9a-f]{32}$/);
    expect(retry.key).toBe(first.key);
    expect(retry.json).toEqual(first.json);
    expect(next.key).toMatch(/^[0-9a-f]{32}$/);
    expect(next.key).not.toBe(first.key);
  });

  it('sends the same text again, once it went through, as a new message', async () => {
    const { sent } = stubChat();
    const user = await openChat();
    for (const _ of [1, 2]) {
      await fill(user, input(), 'ok');
      await user.keyboard('{Enter}');
      await waitFor(() => expect(input().value).toBe(''));
    }
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1].key).not.toBe(sent[0].key);
  });
});

describe('composer audio', () => {
  let decodedSamples = 0;
  const tracks: { stop: ReturnType<typeof vi.fn> }[] = [];
  const getUserMedia = vi.fn();

  class FakeRecorder {
    state = 'inactive';
    mimeType = 'audio/webm';
    ondataavailable: ((event: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob([new Uint8Array(64)], { type: this.mimeType }) });
      this.onstop?.();
    }
  }

  class FakeAudioContext {
    async decodeAudioData() {
      const channel = new Float32Array(decodedSamples).fill(0.25);
      return {
        length: decodedSamples,
        numberOfChannels: 2,
        sampleRate: 48000,
        getChannelData: () => channel,
      };
    }
    async close() {}
  }

  beforeEach(() => {
    // Browsers have Blob.arrayBuffer; jsdom does not.
    if (!Blob.prototype.arrayBuffer) {
      Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
        return new Promise<ArrayBuffer>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result as ArrayBuffer);
          reader.onerror = () => reject(reader.error);
          reader.readAsArrayBuffer(this);
        });
      };
    }
    encoders.length = 0;
    tracks.length = 0;
    getUserMedia.mockReset();
    getUserMedia.mockImplementation(async () => {
      const track = { stop: vi.fn() };
      tracks.push(track);
      return { getTracks: () => [track] };
    });
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia },
    });
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });

  it('drops a recording under 10000 bytes and sends a longer one as an MP3', async () => {
    const { sent } = stubChat();
    const user = await openChat();

    decodedSamples = 9_999;
    await user.click(screen.getByRole('button', { name: 'Grabar audio' }));
    expect(await screen.findByRole('timer', { name: 'Tiempo de grabación' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Mensaje' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Enviar audio' }));
    expect(await screen.findByText('La grabación es demasiado corta y se descartó.')).toBeTruthy();
    expect(sent).toEqual([]);
    expect(tracks[0].stop).toHaveBeenCalled();

    decodedSamples = 10_000;
    await user.click(await screen.findByRole('button', { name: 'Grabar audio' }));
    await user.click(await screen.findByRole('button', { name: 'Enviar audio' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const [audio] = sent[0].form!.getAll('medias') as File[];
    expect(audio.name).toMatch(/^audio-\d+\.mp3$/);
    expect(audio.type).toBe('audio/mpeg');
    expect(audio.size).toBe(10_000);
    expect(encoders.at(-1)).toEqual({ channels: 1, sampleRate: 48000, kbps: 128 });
    expect(await screen.findByRole('button', { name: 'Grabar audio' })).toBeTruthy();
  });

  it('cancelling a recording sends nothing and frees the microphone', async () => {
    const { sent } = stubChat();
    const user = await openChat();
    decodedSamples = 50_000;
    await user.click(screen.getByRole('button', { name: 'Grabar audio' }));
    await user.click(await screen.findByRole('button', { name: 'Cancelar grabación' }));

    expect(await screen.findByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
    expect(tracks[0].stop).toHaveBeenCalled();
    expect(sent).toEqual([]);
  });

  it('says so when the microphone is refused', async () => {
    stubChat();
    getUserMedia.mockRejectedValue(new DOMException('Permission denied', 'NotAllowedError'));
    const user = await openChat();
    await user.click(screen.getByRole('button', { name: 'Grabar audio' }));

    expect(
      await screen.findByText(
        'No se permitió el acceso al micrófono. Habilítelo en el navegador para grabar audios.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Mensaje' })).toBeTruthy();
  });

  it('offers the microphone only while there is nothing to send', async () => {
    stubChat();
    const user = await openChat();
    expect(screen.getByRole('button', { name: 'Grabar audio' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Enviar' })).toBeNull();
    await fill(user, input(), 'Hola');
    expect(screen.queryByRole('button', { name: 'Grabar audio' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeTruthy();
  });
});

describe('composer quick answers', () => {
  const long = 'Nuestro horario de atención es de lunes a viernes de 9 a 18 h.';
  const answers = [
    quickMessage({ id: 1, shortcode: 'horario', message: long }),
    quickMessage({ id: 2, shortcode: 'hola', message: 'Hola, ¿en qué puedo ayudarle?' }),
    quickMessage({ id: 3, shortcode: 'gracias', message: 'Gracias por escribirnos' }),
  ];

  it('lists answers whose shortcode matches what follows "/", with a 35-character preview', async () => {
    const { fetchMock } = stubChat(answers);
    const user = await openChat();
    await fill(user, input(), '/');
    // SPEC §5: the list needs more than the slash.
    expect(screen.queryByRole('listbox', { name: 'Respuestas rápidas' })).toBeNull();

    await user.keyboard('ho');
    const list = await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => within(option).getAllByText(/./)[0].textContent)).toEqual([
      '/horario',
      '/hola',
    ]);
    expect(within(options[0]).getByText(`${long.slice(0, 35)}…`)).toBeTruthy();
    expect(within(options[1]).getByText('Hola, ¿en qué puedo ayudarle?')).toBeTruthy();

    await user.keyboard('x');
    expect(screen.queryByRole('listbox', { name: 'Respuestas rápidas' })).toBeNull();
    const listCalls = fetchMock.mock.calls.filter(
      ([url]) => new URL(String(url)).pathname === '/quick-messages/list',
    );
    expect(listCalls).toHaveLength(1);
    expect(new URL(String(listCalls[0][0])).searchParams.get('userId')).toBe('1');
  });

  it('fills the input with the answer chosen by keyboard or click, and Escape closes the list', async () => {
    const { sent } = stubChat(answers);
    const user = await openChat();
    await fill(user, input(), '/ho');
    await screen.findByRole('listbox', { name: 'Respuestas rápidas' });

    await user.keyboard('{ArrowDown}{Enter}');
    expect(input().value).toBe('Hola, ¿en qué puedo ayudarle?');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(sent).toEqual([]);

    await user.clear(input());
    await fill(user, input(), '/gra');
    await user.click(await screen.findByRole('option', { name: /gracias/ }));
    expect(input().value).toBe('Gracias por escribirnos');

    await user.clear(input());
    await fill(user, input(), '/hor');
    await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(input().value).toBe('/hor');
  });

  it('lists every answer from its button (no "/" to type on a phone) and puts the chosen one at the caret', async () => {
    const { sent } = stubChat(answers);
    const user = await openChat();
    const button = screen.getByRole('button', { name: 'Respuestas rápidas' });
    await fill(user, input(), 'Buenas tardes. ');
    await user.click(button);
    const list = await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    expect(within(list).getAllByRole('option')).toHaveLength(3);
    expect(button.getAttribute('aria-expanded')).toBe('true');

    // Chosen, the answer joins what was written (a "/" search would give way to it).
    await user.click(within(list).getByRole('option', { name: /gracias/ }));
    expect(input().value).toBe('Buenas tardes. Gracias por escribirnos');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(sent).toEqual([]);

    // The button closes its list again, and writing on closes it too.
    await user.click(button);
    await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    await user.click(button);
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.click(button);
    await screen.findByRole('listbox', { name: 'Respuestas rápidas' });
    await user.type(input(), '!');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says from its button when there are no answers yet', async () => {
    stubChat([]);
    const user = await openChat();
    await user.click(screen.getByRole('button', { name: 'Respuestas rápidas' }));
    expect(await screen.findByText('Todavía no hay respuestas rápidas.')).toBeTruthy();
  });

  describe('with an attachment', () => {
    const promo = quickMessage({
      id: 4,
      shortcode: 'promo',
      message: 'Vea nuestra promoción',
      mediaPath: 'a1.png',
      mediaName: 'promo-marzo.png',
      isMedia: true,
      mediaUrl: 'http://api.test/uploads/1/a1.png?expires=9999999999&sig=firma',
    });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
    // jsdom's File has no arrayBuffer(); FileReader reads it.
    const bytesOf = (file: File) =>
      new Promise<ArrayBuffer>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error);
        reader.readAsArrayBuffer(file);
      });
    beforeEach(() => {
      URL.createObjectURL = vi.fn(() => 'blob:promo');
      URL.revokeObjectURL = vi.fn();
    });

    it('attaches the answer’s file and sends it with the answer as its caption', async () => {
      let answer: (response: Response) => void = () => undefined;
      const { sent } = stubChat([promo], undefined, {
        'GET /uploads/1/a1.png': () => new Promise<Response>((resolve) => (answer = resolve)),
      });
      const user = await openChat();
      await fill(user, input(), '/promo');
      await user.click(await screen.findByRole('option', { name: /promo/ }));
      expect(input().value).toBe('Vea nuestra promoción');

      // Sending waits for the file: the text must not leave without it.
      await user.keyboard('{Enter}');
      expect(sent).toEqual([]);
      answer(new Response(png, { status: 200, headers: { 'Content-Type': 'image/png' } }));
      const panel = await screen.findByRole('region', { name: 'Archivos adjuntos' });
      expect(within(panel).getByRole('img', { name: 'promo-marzo.png' })).toBeTruthy();
      expect(within(panel).getByText('8 B')).toBeTruthy();

      await user.keyboard('{Enter}');
      await waitFor(() => expect(sent).toHaveLength(1));
      const form = sent[0].form!;
      expect(form.get('body')).toBe('Vea nuestra promoción');
      const [file] = form.getAll('medias') as File[];
      expect(file.name).toBe('promo-marzo.png');
      expect(file.type).toBe('image/png');
      expect(new Uint8Array(await bytesOf(file))).toEqual(png);
      await waitFor(() =>
        expect(screen.queryByRole('region', { name: 'Archivos adjuntos' })).toBeNull(),
      );
    });

    it('says so when the file cannot be fetched, keeping the text to send alone', async () => {
      const { sent } = stubChat([promo]);
      const user = await openChat();
      await fill(user, input(), '/promo');
      await user.click(await screen.findByRole('option', { name: /promo/ }));

      expect(
        await screen.findByText('No se pudo adjuntar promo-marzo.png de la respuesta rápida.'),
      ).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Archivos adjuntos' })).toBeNull();
      expect(input().value).toBe('Vea nuestra promoción');
      await user.keyboard('{Enter}');
      await waitFor(() =>
        expect(sent.map((s) => s.json)).toEqual([{ body: 'Vea nuestra promoción' }]),
      );
    });
  });
});
