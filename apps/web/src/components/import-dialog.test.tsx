import { act, render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http-client';
import { i18n } from '../i18n/i18n';
import type { SheetRow } from '../lib/contact-sheet';
import { cellTextsOf } from '../test/tables';
import { setupUser } from '../test/user-event';
import { ImportDialog, type ImportResult } from './import-dialog';

// The sheet the browser reads (jsdom cannot unzip an .xlsx), or the reader's failure.
const sheet = vi.hoisted(() => ({ rows: [] as unknown[][], fails: false }));
vi.mock('read-excel-file/browser', () => ({
  readSheet: async () => {
    if (sheet.fails) throw new Error('not a zip');
    return sheet.rows;
  },
}));

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MEGABYTE = 1024 * 1024;

// An import whose server answers when the test says so, reporting the progress the test plays.
const fakeImport = () => {
  const calls: { rows: SheetRow[]; progress: (share: number | null) => void }[] = [];
  let settle: { resolve: (result: ImportResult) => void; reject: (error: unknown) => void };
  const importSheet = vi.fn(
    ({ rows }: { file: File; rows: SheetRow[] }, progress: (share: number | null) => void) => {
      calls.push({ rows, progress });
      return new Promise<ImportResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
    },
  );
  return {
    importSheet,
    progress: (share: number | null) => act(() => calls.at(-1)!.progress(share)),
    answer: (result: ImportResult) => act(() => settle.resolve(result)),
    fail: (error: unknown) => act(() => settle.reject(error)),
    rowsSent: () => calls.at(-1)?.rows,
  };
};

const renderDialog = (importSheet: ReturnType<typeof fakeImport>['importSheet']) =>
  render(
    <ImportDialog
      open
      onClose={() => undefined}
      title="Importar contactos"
      confirm="Se importarán a la lista Clientes. ¿Continuar?"
      numberRule="contactLists.validation.number"
      maxBytes={5 * MEGABYTE}
      maxRows={3}
      importSheet={importSheet}
    />,
  );

const dialog = () => screen.getByRole('dialog', { name: 'Importar contactos' });
const choose = async (user: ReturnType<typeof setupUser>, file: File) =>
  user.upload(screen.getByTestId('import-file'), file);
const sheetFile = (name = 'clientes.xlsx') => new File(['xlsx'], name, { type: XLSX_TYPE });

beforeEach(() => {
  sheet.rows = [
    ['Nombre', 'Número', 'Email'],
    ['Ana', '5491155550001', ''],
    [null, '', null],
    ['Bruno', '5491155550002', 'bruno@example.com'],
  ];
  sheet.fails = false;
});

describe('import dialog', () => {
  it('counts the file’s rows, imports after confirming, and sums up what came in and why not', async () => {
    const server = fakeImport();
    const user = setupUser();
    renderDialog(server.importSheet);
    // The file is chosen with a button in the app's language; the native input stays hidden.
    expect(within(dialog()).getByRole('button', { name: 'Elegir archivo' })).toBeTruthy();
    expect(screen.getByTestId('import-file').hidden).toBe(true);

    await choose(user, sheetFile());
    expect(await within(dialog()).findByText('clientes.xlsx: 2 filas de contactos.')).toBeTruthy();
    expect(
      within(dialog()).getByText('Se importarán a la lista Clientes. ¿Continuar?'),
    ).toBeTruthy();
    expect(server.importSheet).not.toHaveBeenCalled();

    await user.click(within(dialog()).getByRole('button', { name: 'Importar' }));
    // Every row goes, blank ones too, so the server names the rows as the sheet numbers them.
    expect(server.rowsSent()).toEqual([
      { Nombre: 'Ana', Número: '5491155550001', Email: '' },
      { Nombre: null, Número: '', Email: null },
      { Nombre: 'Bruno', Número: '5491155550002', Email: 'bruno@example.com' },
    ]);
    server.progress(0.5);
    const bar = within(dialog()).getByRole('progressbar', { name: 'Progreso de la importación' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(within(dialog()).getByText('Importando… 50 %')).toBeTruthy();
    expect(
      (within(dialog()).getByRole('button', { name: 'Cerrar' }) as HTMLButtonElement).disabled,
    ).toBe(true);

    server.answer({
      imported: 2,
      note: 'La lista tiene ahora 9 contactos.',
      refused: [
        {
          row: 3,
          name: 'Ana',
          number: '5491155550001',
          error: 'ERR_DUPLICATED_LIST_ITEM',
          message: '',
        },
        {
          row: 4,
          name: 'X',
          number: '5491155550003',
          error: 'ERR_VALIDATION',
          field: 'name',
          message: 'Too small',
        },
        {
          row: 5,
          name: 'Sin número',
          number: '',
          error: 'ERR_VALIDATION',
          field: 'number',
          message: 'Too small',
        },
        {
          row: 6,
          name: 'Corto',
          number: '12',
          error: 'ERR_VALIDATION',
          field: 'number',
          message: 'Too small',
        },
        {
          row: 7,
          name: 'Correo',
          number: '5491155550004',
          error: 'ERR_VALIDATION',
          field: 'email',
          message: 'Invalid',
        },
        {
          row: 8,
          name: 'Sin cuenta',
          number: '9991155550005',
          error: 'ERR_WAPP_INVALID_CONTACT',
          field: 'number',
          message: 'Not on WhatsApp',
        },
      ],
    });
    expect(await within(dialog()).findByText('2 contactos importados')).toBeTruthy();
    expect(within(dialog()).getByText('1 fila omitida por número duplicado')).toBeTruthy();
    expect(within(dialog()).getByText('5 filas con errores')).toBeTruthy();
    expect(within(dialog()).getByText('La lista tiene ahora 9 contactos.')).toBeTruthy();
    expect(within(dialog()).getByText('6 filas no importadas')).toBeTruthy();
    expect(
      cellTextsOf(within(dialog()).getByRole('table', { name: 'Filas no importadas' })),
    ).toEqual([
      ['3', 'Ana', '5491155550001', 'Número duplicado'],
      ['4', 'X', '5491155550003', 'Nombre: Debe tener entre 2 y 50 caracteres'],
      ['5', 'Sin número', '', 'Número: Campo obligatorio'],
      ['6', 'Corto', '12', 'Número: Use de 8 a 15 dígitos'],
      ['7', 'Correo', '5491155550004', 'Correo electrónico inválido'],
      ['8', 'Sin cuenta', '9991155550005', 'Este no es un número de WhatsApp válido.'],
    ]);
  });

  it('refuses a file it cannot import before sending anything, saying why', async () => {
    const server = fakeImport();
    const user = setupUser({ applyAccept: false });
    renderDialog(server.importSheet);
    const refusal = () => within(dialog()).getByRole('alert');

    await choose(
      user,
      new File(['a;b'], 'contactos.ods', {
        type: 'application/vnd.oasis.opendocument.spreadsheet',
      }),
    );
    expect(refusal().textContent).toBe(
      'contactos.ods no es una planilla de Excel ni un archivo CSV. Suba una planilla de Excel ' +
        '(.xlsx) o un archivo CSV (.csv): ábralo en Excel, LibreOffice o Google Sheets, guárdelo ' +
        'como .xlsx o .csv y elíjalo de nuevo.',
    );

    await choose(
      user,
      new File([new Uint8Array(6 * MEGABYTE)], 'grande.xlsx', { type: XLSX_TYPE }),
    );
    expect(refusal().textContent).toBe('grande.xlsx pesa 6 MB; el máximo es 5 MB.');

    sheet.fails = true;
    await choose(user, sheetFile('roto.xlsx'));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'No se pudo leer roto.xlsx: elija una planilla de Excel (.xlsx) o un archivo CSV (.csv).',
    );
    sheet.fails = false;

    sheet.rows = [
      ['Nombre', 'Email'],
      ['Ana', 'ana@example.com'],
    ];
    await choose(user, sheetFile('sin-numero.xlsx'));
    expect((await within(dialog()).findByText(/^La primera fila de sin-numero/)).textContent).toBe(
      'La primera fila de sin-numero.xlsx debe nombrar las columnas nombre, número y email (o ' +
        'name, number, email).',
    );

    sheet.rows = [
      ['Nombre', 'Número'],
      [null, null],
    ];
    await choose(user, sheetFile('vacia.xlsx'));
    expect(
      await within(dialog()).findByText(
        'vacia.xlsx no tiene filas de contactos debajo de la primera fila.',
      ),
    ).toBeTruthy();

    sheet.rows = [['Número'], ['1'], ['2'], ['3'], ['4']];
    await choose(user, sheetFile('larga.xlsx'));
    expect(
      await within(dialog()).findByText('larga.xlsx tiene 4 filas de contactos; el máximo es 3.'),
    ).toBeTruthy();

    expect(within(dialog()).queryByRole('button', { name: 'Importar' })).toBeNull();
    expect(server.importSheet).not.toHaveBeenCalled();
  });

  it('reads a CSV as the rows of a sheet: a BOM, commas, quoted cells', async () => {
    const server = fakeImport();
    const user = setupUser();
    renderDialog(server.importSheet);
    expect(
      within(dialog()).getByText(
        'Sirve el CSV que exportan Contactos de Google o un CRM: con las columnas separadas por ' +
          'coma, punto y coma o tabulación, en UTF-8 o Latin-1.',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('import-file').getAttribute('accept')).toContain('.csv');

    // UTF-8 with a BOM, a name with a comma and quotes in a quoted cell.
    const csv =
      '\uFEFFName,Phone,E-mail\r\n' +
      '"Pérez, Ana ""La Jefa""",5491155550001,ana@example.com\r\n' +
      ',,\r\n' +
      'Bruno,5491155550002\r\n';
    await choose(user, new File([csv], 'google.csv', { type: 'text/csv' }));
    expect(await within(dialog()).findByText('google.csv: 2 filas de contactos.')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Importar' }));
    // A line of empty cells is a blank row; a short row lacks its last cells.
    expect(server.rowsSent()).toEqual([
      { Name: 'Pérez, Ana "La Jefa"', Phone: '5491155550001', 'E-mail': 'ana@example.com' },
      { Name: '', Phone: '', 'E-mail': '' },
      { Name: 'Bruno', Phone: '5491155550002', 'E-mail': null },
    ]);
  });

  it('takes a file the browser calls text/csv whatever its name', async () => {
    const server = fakeImport();
    const user = setupUser();
    renderDialog(server.importSheet);
    const tabs = 'numero\tnombre\n5491155550001\tAna\n';
    await choose(user, new File([tabs], 'export', { type: 'text/csv' }));
    expect(await within(dialog()).findByText('export: 1 fila de contactos.')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Importar' }));
    expect(server.rowsSent()).toEqual([{ numero: '5491155550001', nombre: 'Ana' }]);
  });

  it('words a refusal of the server as its own, and lets another file be chosen', async () => {
    const server = fakeImport();
    const user = setupUser();
    renderDialog(server.importSheet);
    // At the limit here, past it with what the request adds.
    await choose(
      user,
      new File([new Uint8Array(5 * MEGABYTE)], 'clientes.xlsx', { type: XLSX_TYPE }),
    );
    await user.click(await within(dialog()).findByRole('button', { name: 'Importar' }));
    server.fail(new ApiError({ status: 413, code: 'ERR_UPLOAD_TOO_LARGE', message: 'Too large' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe(
      'clientes.xlsx pesa 5 MB; el máximo es 5 MB.',
    );

    const picker = vi.spyOn(screen.getByTestId('import-file'), 'click');
    await user.click(within(dialog()).getByRole('button', { name: 'Elegir otro archivo' }));
    expect(picker).toHaveBeenCalled();
    // Back at the start, with nothing refused yet.
    expect(within(dialog()).queryByRole('alert')).toBeNull();
    expect(
      within(dialog()).getByRole('button', { name: 'Descargar planilla de ejemplo' }),
    ).toBeTruthy();
  });

  it('speaks the app’s language', async () => {
    const server = fakeImport();
    const user = setupUser();
    await act(() => i18n.changeLanguage('en'));
    renderDialog(server.importSheet);
    expect(screen.getByRole('button', { name: 'Choose file' })).toBeTruthy();
    expect(
      screen.getByText(
        'Up to 3 rows and 5 MB. A row with errors never stops the others from being imported.',
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        'A CSV exported from Google Contacts or a CRM works: its columns separated by commas, ' +
          'semicolons or tabs, in UTF-8 or Latin-1.',
      ),
    ).toBeTruthy();
    await choose(user, sheetFile());
    expect(await screen.findByText('clientes.xlsx: 2 contact rows.')).toBeTruthy();
  });
});
