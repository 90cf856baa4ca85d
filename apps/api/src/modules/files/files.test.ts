import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileListView } from '@atendi/shared';
import {
  sharedTestApp,
  inject,
  login,
  makeCompany,
  makeUser,
  type Method,
  type Session,
  type SharedTestContext,
} from '../../../test/harness';
import { eventually } from '../../../test/eventually';
import { caughtUp, closeSockets, listenAs } from '../../../test/sockets';

let t: SharedTestContext;
let admin: Session;
let agent: Session;
let outsider: Session;
let companyId: number;

beforeAll(async () => {
  t = await sharedTestApp();
  const made = await makeCompany(t.db);
  companyId = made.company.id;
  admin = await login(t.app, made.admin.email);
  agent = await login(t.app, (await makeUser(t.db, companyId, 'user')).email);
  outsider = await login(t.app, (await makeCompany(t.db)).admin.email);
});
afterAll(async () => {
  closeSockets();
});

const call = (session: Session, method: Method, url: string, payload?: object) =>
  inject(t.app, session, method, url, payload);

const create = async (body: Record<string, unknown>) => {
  const res = await call(admin, 'POST', '/files', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as FileListView;
};

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; content: Buffer };

// A browser's multipart form, fields and files in the order given.
const multipart = (parts: Part[]) => {
  const boundary = '----atendi-files-boundary';
  const chunks = parts.flatMap((part) =>
    'value' in part
      ? [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
          ),
        ]
      : [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
          ),
          part.content,
          Buffer.from('\r\n'),
        ],
  );
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const pdf = Buffer.from('%PDF-1.4\n% catálogo de prueba\n');

type Upload = { optionId: number; name?: string; filename: string; type: string; content: Buffer };

// What the files dialog sends: per file its option (fileId, id), name and type, then the file.
const upload = (session: Session, listId: number, files: Upload[]) => {
  const form = multipart([
    { name: 'typeArch', value: 'fileList' },
    ...files.flatMap((file): Part[] => [
      { name: 'fileId', value: String(file.optionId) },
      { name: 'id', value: String(file.optionId) },
      { name: 'name', value: file.name ?? '' },
      { name: 'mediaType', value: file.type },
      { name: 'files', filename: file.filename, type: file.type, content: file.content },
    ]),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/files/uploadList/${listId}`,
    headers: { authorization: `Bearer ${session.token}`, ...form.headers },
    payload: form.payload,
  });
};

const storedIn = (company: number) => {
  const folder = path.join(t.config.dataDir, 'uploads', String(company));
  return existsSync(folder) ? readdirSync(folder).sort() : [];
};
const isStored = (path: string) => storedIn(companyId).includes(path);

const download = async (url: string) => {
  const link = new URL(url);
  return t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
};

describe('file lists API', () => {
  it('creates a list with its options, reads it, and finds it by name', async () => {
    const created = await create({
      name: 'Catálogo otoño',
      message: 'Le enviamos nuestro catálogo',
      options: [{ name: 'Portada', mediaType: 'image/png' }, { name: 'Precios' }],
    });
    expect(created).toMatchObject({
      name: 'Catálogo otoño',
      message: 'Le enviamos nuestro catálogo',
      companyId,
      options: [
        { id: expect.any(Number), name: 'Portada', path: '', mediaType: 'image/png', url: null },
        { id: expect.any(Number), name: 'Precios', path: '', mediaType: '', url: null },
      ],
    });

    const read = await call(agent, 'GET', `/files/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
    const found = (await call(agent, 'GET', '/files?searchParam=OTOÑO&pageNumber=1')).json();
    expect(found).toEqual({ files: [created], hasMore: false });
    const missed = (await call(agent, 'GET', '/files?searchParam=no-existe')).json();
    expect(missed).toEqual({ files: [], hasMore: false });
  });

  it('pages the search 20 at a time, and lists every list for pickers', async () => {
    for (let i = 1; i <= 21; i += 1)
      await create({ name: `Lote ${String(i).padStart(2, '0')}`, message: 'Hola' });

    const first = (await call(admin, 'GET', '/files?searchParam=lote&pageNumber=1')).json();
    expect(first.hasMore).toBe(true);
    expect(first.files).toHaveLength(20);
    expect(first.files[0].name).toBe('Lote 01');
    const second = (await call(admin, 'GET', '/files?searchParam=lote&pageNumber=2')).json();
    expect(second).toMatchObject({ hasMore: false, files: [{ name: 'Lote 21' }] });

    const all = (await call(agent, 'GET', `/files?companyId=${companyId}`)).json();
    expect(all.hasMore).toBe(false);
    expect(all.files.filter((f: FileListView) => f.name.startsWith('Lote'))).toHaveLength(21);
    const list = (await call(agent, 'GET', '/files/list')).json() as FileListView[];
    expect(list.map((f) => f.name)).toEqual(all.files.map((f: FileListView) => f.name));
  });

  it('refuses a name under 3 characters and a missing or blank message', async () => {
    const short = await call(admin, 'POST', '/files', { name: 'ab', message: 'Hola' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { name: expect.any(Array) },
    });
    const noMessage = await call(admin, 'POST', '/files', { name: 'Precios' });
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().fields).toHaveProperty('message');
    const blank = await call(admin, 'POST', '/files', { name: 'Precios', message: '   ' });
    expect(blank.statusCode).toBe(400);
    const unnamedOption = await call(admin, 'POST', '/files', {
      name: 'Precios',
      message: 'Hola',
      options: [{ name: '' }],
    });
    expect(unnamedOption.statusCode).toBe(400);

    const list = await create({ name: 'Valida', message: 'Hola' });
    const edit = await call(admin, 'PUT', `/files/${list.id}`, { name: 'x', message: 'Hola' });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().error).toBe('ERR_VALIDATION');
  });

  it('lets every profile read the lists but only admins change them', async () => {
    const list = await create({ name: 'Solo admins', message: 'Hola', options: [{ name: 'A' }] });
    const refusals = [
      await call(agent, 'POST', '/files', { name: 'Del agente', message: 'Hola' }),
      await call(agent, 'PUT', `/files/${list.id}`, { name: 'Cambiada', message: 'Hola' }),
      await call(agent, 'DELETE', `/files/${list.id}`),
      await upload(agent, list.id, [
        { optionId: list.options[0].id, filename: 'a.png', type: 'image/png', content: png },
      ]),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect((await call(agent, 'GET', `/files/${list.id}`)).json().name).toBe('Solo admins');
  });
});

describe('file uploads', () => {
  it('stores several files at once, each on its option, downloadable at its link', async () => {
    const list = await create({
      name: 'Promoción',
      message: 'Mire nuestra promoción',
      options: [{ name: 'Imagen' }, { name: 'Folleto' }],
    });
    const [image, brochure] = list.options;
    const res = await upload(admin, list.id, [
      { optionId: image.id, filename: 'banner.PNG', type: 'image/png', content: png },
      {
        optionId: brochure.id,
        name: 'Folleto de precios',
        filename: 'precios.pdf',
        type: 'application/pdf',
        content: pdf,
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as FileListView;
    expect(saved.options).toMatchObject([
      { id: image.id, name: 'Imagen', mediaType: 'image/png' },
      { id: brochure.id, name: 'Folleto de precios', mediaType: 'application/pdf' },
    ]);
    expect(saved.options[0].path).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(saved.options[1].path).toMatch(/^[a-f0-9]{32}\.pdf$/);
    expect((await call(admin, 'GET', `/files/${list.id}`)).json()).toMatchObject({
      options: saved.options.map(({ id, path, mediaType }) => ({ id, path, mediaType })),
    });

    const served = await download(saved.options[0].url!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);
    const servedPdf = await download(saved.options[1].url!);
    expect(servedPdf.rawPayload.equals(pdf)).toBe(true);

    // A new file for an option replaces the old one, which is removed.
    const again = await upload(admin, list.id, [
      { optionId: image.id, filename: 'banner2.jpg', type: 'image/jpeg', content: png },
    ]);
    expect(again.statusCode, again.body).toBe(200);
    const replaced = (again.json() as FileListView).options[0];
    expect(replaced).toMatchObject({
      mediaType: 'image/jpeg',
      path: expect.stringMatching(/\.jpg$/),
    });
    expect(isStored(saved.options[0].path)).toBe(false);
    expect(isStored(replaced.path)).toBe(true);
  });

  it('stores nothing for a refused upload', async () => {
    const list = await create({ name: 'Rechazos', message: 'Hola', options: [{ name: 'Uno' }] });
    const other = await create({ name: 'Otra lista', message: 'Hola', options: [{ name: 'Dos' }] });
    const option = list.options[0];
    const file = { filename: 'a.png', type: 'image/png', content: png };
    const before = storedIn(companyId);
    const outsiderBefore = storedIn(outsider.companyId);

    const foreign = await upload(outsider, list.id, [{ optionId: option.id, ...file }]);
    expect(foreign.statusCode).toBe(404);
    const notInList = await upload(admin, list.id, [{ optionId: other.options[0].id, ...file }]);
    expect(notInList.statusCode).toBe(404);
    const badType = await upload(admin, list.id, [
      { optionId: option.id, ...file },
      {
        optionId: option.id,
        filename: 'script.exe',
        type: 'application/x-msdownload',
        content: pdf,
      },
    ]);
    expect(badType.statusCode).toBe(415);
    expect(badType.json().error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const twice = await upload(admin, list.id, [
      { optionId: option.id, ...file },
      { optionId: option.id, ...file },
    ]);
    expect(twice.statusCode).toBe(400);

    expect(storedIn(companyId)).toEqual(before);
    expect(storedIn(outsider.companyId)).toEqual(outsiderBefore);
    expect((await call(admin, 'GET', `/files/${list.id}`)).json().options[0].path).toBe('');
  });

  it('edits the options: renames kept ones, adds new ones, removes the rest with their files', async () => {
    const list = await create({
      name: 'Editable',
      message: 'Hola',
      options: [{ name: 'Queda' }, { name: 'Se va' }],
    });
    const [kept, dropped] = list.options;
    const uploaded = (
      await upload(admin, list.id, [
        { optionId: kept.id, filename: 'a.png', type: 'image/png', content: png },
        { optionId: dropped.id, filename: 'b.pdf', type: 'application/pdf', content: pdf },
      ])
    ).json() as FileListView;
    const [keptPath, droppedPath] = uploaded.options.map((o) => o.path);

    const res = await call(admin, 'PUT', `/files/${list.id}`, {
      name: 'Editada',
      message: 'Hola de nuevo',
      options: [{ id: kept.id, name: 'Renombrada' }, { name: 'Nueva' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Editada',
      message: 'Hola de nuevo',
      options: [
        { id: kept.id, name: 'Renombrada', path: keptPath },
        { id: expect.any(Number), name: 'Nueva', path: '' },
      ],
    });
    expect(isStored(keptPath)).toBe(true);
    expect(isStored(droppedPath)).toBe(false);

    // Without options only the name and message change.
    const plain = await call(admin, 'PUT', `/files/${list.id}`, {
      name: 'Otra vez',
      message: 'Hola',
    });
    expect(plain.json().options).toHaveLength(2);

    const wrong = await call(admin, 'PUT', `/files/${list.id}`, {
      name: 'Editada',
      message: 'Hola',
      options: [{ id: dropped.id, name: 'Ya no existe' }],
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'ERR_VALIDATION',
      fields: { 'options.0.id': ['ERR_NOT_FOUND'] },
    });
    expect((await call(admin, 'GET', `/files/${list.id}`)).json().name).toBe('Otra vez');
  });

  it('deletes a list with its options and their files', async () => {
    const list = await create({ name: 'Se borra', message: 'Hola', options: [{ name: 'Uno' }] });
    const saved = (
      await upload(admin, list.id, [
        { optionId: list.options[0].id, filename: 'a.png', type: 'image/png', content: png },
      ])
    ).json() as FileListView;
    const stored = saved.options[0].path;
    expect(isStored(stored)).toBe(true);

    expect((await call(admin, 'DELETE', `/files/${list.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'GET', `/files/${list.id}`)).statusCode).toBe(404);
    expect(isStored(stored)).toBe(false);
    expect((await download(saved.options[0].url!)).statusCode).toBe(404);
  });
});

describe('file lists across companies', () => {
  it("answers 404 for another company's list on every route", async () => {
    const mine = await create({ name: 'De mi empresa', message: 'Hola', options: [{ name: 'A' }] });
    for (const [method, url, payload] of [
      ['GET', `/files/${mine.id}`, undefined],
      ['PUT', `/files/${mine.id}`, { name: 'Robada', message: 'Hola' }],
      ['DELETE', `/files/${mine.id}`, undefined],
    ] as const) {
      const res = await call(outsider, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const theirs = (await call(outsider, 'GET', '/files?searchParam=empresa')).json();
    expect(theirs.files).toEqual([]);
    expect((await call(outsider, 'GET', '/files/list')).json()).toEqual([]);
    // Naming another company changes nothing: the list is always the caller's.
    const named = (await call(outsider, 'GET', `/files?companyId=${companyId}`)).json();
    expect(named.files).toEqual([]);
    expect((await call(admin, 'GET', `/files/${mine.id}`)).json().name).toBe('De mi empresa');
  });

  it('tells every user of the company, and nobody else, on company-{id}-file', async () => {
    const colleague = await listenAs(t.app, agent);
    const stranger = await listenAs(t.app, outsider);

    const list = await create({ name: 'En vivo', message: 'Hola', options: [{ name: 'Uno' }] });
    await call(admin, 'PUT', `/files/${list.id}`, { name: 'En vivo, editada', message: 'Hola' });
    await upload(admin, list.id, [
      { optionId: list.options[0].id, filename: 'a.png', type: 'image/png', content: png },
    ]);
    await call(admin, 'DELETE', `/files/${list.id}`);

    const events = await eventually(
      async () => colleague.filter((h) => h.event === `company-${companyId}-file`),
      (heard) => heard.length >= 4,
      'file events',
    );
    expect(events.map((e) => e.payload.action)).toEqual(['create', 'update', 'update', 'delete']);
    expect(events[0].payload.files).toMatchObject({ id: list.id, name: 'En vivo' });
    expect(events[1].payload.files).toMatchObject({ name: 'En vivo, editada' });
    expect(events[2].payload.files).toMatchObject({
      options: [{ mediaType: 'image/png', path: expect.stringMatching(/\.png$/) }],
    });
    expect(events[3].payload).toEqual({ action: 'delete', fileId: list.id });
    // Barrier: the server's answer on the stranger's socket comes after anything emitted to it.
    await caughtUp(stranger);
    expect(stranger.filter((h) => h.event.endsWith('-file'))).toEqual([]);
  });
});
