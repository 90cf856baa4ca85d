import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http-client';
import { TestProviders } from '../test/test-providers';
import { fill, setupUser } from '../test/user-event';
import { DialogForm, DialogFrame, DialogRecord } from './dialog-frame';
import { namedFields, useDialogSave } from './dialog-save';
import { FormText } from './form-text';

type Tag = { name: string; color: string };

// A tag form as a feature writes one: its save is the test's.
const TagForm = ({
  save,
  onSaved,
}: {
  save: (tag: Tag) => Promise<Tag>;
  onSaved?: (tag: Tag) => void;
}) => {
  const form = useForm<Tag>({ defaultValues: { name: '', color: '#1e88e5' } });
  const dialogSave = useDialogSave(form, {
    save,
    savedText: 'Etiqueta guardada.',
    onSaved,
    codes: { ERR_INTEGRATION_NAME_EXISTS: 'name' },
    fields: namedFields<Tag>(['name', 'color']),
  });
  return (
    <DialogForm title="Nueva etiqueta" submitLabel="Agregar" {...dialogSave}>
      <FormText form={form} name="name" label="Nombre" hint="Como la verán los agentes." />
      <FormText form={form} name="color" label="Color" />
    </DialogForm>
  );
};

const TagDialog = (props: Parameters<typeof TagForm>[0]) => {
  const [open, setOpen] = useState(true);
  return (
    <TestProviders>
      <DialogFrame open={open} onClose={() => setOpen(false)}>
        <TagForm {...props} />
      </DialogFrame>
    </TestProviders>
  );
};

const refusal = (code: string, fields?: Record<string, string[]>) =>
  new ApiError({
    status: code === 'ERR_VALIDATION' ? 400 : 409,
    code,
    message: `${code} text`,
    fields,
  });

const submit = async (name = 'VIP') => {
  const user = setupUser();
  const dialog = screen.getByRole('dialog', { name: 'Nueva etiqueta' });
  await fill(user, within(dialog).getByRole('textbox', { name: 'Nombre' }), name);
  await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
  return dialog;
};

describe('useDialogSave', () => {
  it('sends what the form holds, toasts what was saved and closes the dialog', async () => {
    const save = vi.fn((tag: Tag) => Promise.resolve(tag));
    render(<TagDialog save={save} />);
    expect(screen.getByText('Como la verán los agentes.')).toBeTruthy();
    await submit();

    expect(await screen.findByText('Etiqueta guardada.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(save).toHaveBeenCalledExactlyOnceWith({ name: 'VIP', color: '#1e88e5' });
  });

  it('hands what was saved to a dialog that stays open', async () => {
    const onSaved = vi.fn();
    render(<TagDialog save={(tag) => Promise.resolve(tag)} onSaved={onSaved} />);
    await submit();

    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledExactlyOnceWith({ name: 'VIP', color: '#1e88e5' }),
    );
    expect(screen.getByText('Etiqueta guardada.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Nueva etiqueta' })).toBeTruthy();
  });

  it('says a 409 of a field under it, focused, with no toast, and keeps the dialog open', async () => {
    render(<TagDialog save={() => Promise.reject(refusal('ERR_INTEGRATION_NAME_EXISTS'))} />);
    const dialog = await submit('Ocupada');

    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    const message = await within(dialog).findByText('Ya existe una integración con este nombre.');
    // In place of the field's hint.
    expect(message.id).toBe(name.getAttribute('aria-describedby'));
    expect(within(dialog).queryByText('Como la verán los agentes.')).toBeNull();
    expect(document.activeElement).toBe(name);
    expect((name as HTMLInputElement).value).toBe('Ocupada');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('marks the fields a 400 names, the first focused', async () => {
    render(
      <TagDialog
        save={() =>
          Promise.reject(refusal('ERR_VALIDATION', { color: ['Invalid'], other: ['Invalid'] }))
        }
      />,
    );
    const dialog = await submit();

    const color = within(dialog).getByRole('textbox', { name: 'Color' });
    const message = await within(dialog).findByText('Revise los datos del formulario.');
    expect(message.id).toBe(color.getAttribute('aria-describedby'));
    expect(document.activeElement).toBe(color);
  });

  it('toasts any other refusal in the API’s words and keeps what was typed', async () => {
    render(
      <TagDialog
        save={() =>
          Promise.reject(new ApiError({ status: 500, code: 'ERR_SOMETHING', message: 'Disk full' }))
        }
      />,
    );
    const dialog = await submit('Nueva');

    expect(await screen.findByText('Disk full')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Nueva etiqueta' })).toBe(dialog);
    expect(
      (within(dialog).getByRole('textbox', { name: 'Nombre' }) as HTMLInputElement).value,
    ).toBe('Nueva');
    expect(within(dialog).queryByText('Revise los datos del formulario.')).toBeNull();
  });
});

type TagRecord = { id: number; name: string };

// A query hook as a feature's: the test decides what it answers.
const recordQuery = { data: undefined as TagRecord | undefined, isError: false };
const useRecord = vi.fn((_id: number) => recordQuery);

const RecordDialog = ({ id }: { id: number | null }) => (
  <TestProviders>
    <DialogFrame open onClose={() => undefined}>
      <DialogRecord
        id={id}
        useRecord={useRecord}
        title="Editar etiqueta"
        loadFailed="No se pudo cargar."
      >
        {(record) => (
          <DialogForm
            title={record ? 'Editar etiqueta' : 'Nueva etiqueta'}
            submitLabel="Guardar"
            isSubmitting={false}
            onSubmit={(event) => event.preventDefault()}
          >
            <output>{record?.name ?? 'nueva'}</output>
          </DialogForm>
        )}
      </DialogRecord>
    </DialogFrame>
  </TestProviders>
);

describe('DialogRecord', () => {
  it('gives a new record’s form at once, loading nothing', () => {
    useRecord.mockClear();
    render(<RecordDialog id={null} />);
    expect(screen.getByRole('dialog', { name: 'Nueva etiqueta' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('nueva');
    expect(useRecord).not.toHaveBeenCalled();
  });

  it('loads a saved record by id, then gives its form', () => {
    Object.assign(recordQuery, { data: { id: 7, name: 'VIP' }, isError: false });
    render(<RecordDialog id={7} />);
    expect(useRecord).toHaveBeenLastCalledWith(7);
    expect(screen.getByRole('dialog', { name: 'Editar etiqueta' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('VIP');
  });

  it('shows the edit title while loading, then says why it could not load, with Cancelar', () => {
    Object.assign(recordQuery, { data: undefined, isError: false });
    const { rerender } = render(<RecordDialog id={7} />);
    const dialog = screen.getByRole('dialog', { name: 'Editar etiqueta' });
    expect(within(dialog).getByRole('progressbar')).toBeTruthy();

    Object.assign(recordQuery, { data: undefined, isError: true });
    rerender(<RecordDialog id={7} />);
    expect(within(dialog).getByRole('alert').textContent).toBe('No se pudo cargar.');
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Guardar' })).toBeNull();
  });
});
