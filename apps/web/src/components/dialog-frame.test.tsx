import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DialogForm, DialogFrame, DialogLoading, DialogView } from './dialog-frame';

const button = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole<HTMLButtonElement>('button', { name });

// A form whose save waits for the test to let it finish.
const FormDialog = ({ onSaved }: { onSaved: () => void }) => {
  const [open, setOpen] = useState(true);
  const [isSubmitting, setSubmitting] = useState(false);
  const [release, setRelease] = useState<(() => void) | null>(null);
  return (
    <>
      <DialogFrame open={open} onClose={() => setOpen(false)}>
        <DialogForm
          title="Nueva etiqueta"
          submitLabel="Agregar"
          isSubmitting={isSubmitting}
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitting(true);
            setRelease(() => () => {
              setSubmitting(false);
              setOpen(false);
              onSaved();
            });
          }}
        >
          <input aria-label="Nombre" />
        </DialogForm>
      </DialogFrame>
      {release && <button onClick={release}>finish</button>}
    </>
  );
};

describe('dialog frame', () => {
  it('ends a form in Cancelar and its submit, which spins and holds the dialog open while sending', async () => {
    const user = userEvent.setup();
    const onSaved = vi.fn();
    render(<FormDialog onSaved={onSaved} />);
    const dialog = screen.getByRole('dialog', { name: 'Nueva etiqueta' });
    expect(button(dialog, 'Cancelar').disabled).toBe(false);

    // Enter in a field sends the form.
    await user.type(within(dialog).getByRole('textbox', { name: 'Nombre' }), 'VIP{Enter}');
    const submit = button(dialog, 'Agregar');
    expect(submit.disabled).toBe(true);
    expect(within(submit).getByRole('progressbar')).toBeTruthy();
    expect(button(dialog, 'Cancelar').disabled).toBe(true);

    // Neither Escape nor the backdrop closes it meanwhile.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Nueva etiqueta' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'finish', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it('closes a form on Cancelar and on Escape while nothing is being sent', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<FormDialog onSaved={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    unmount();

    render(<FormDialog onSaved={vi.fn()} />);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says Cerrar instead of Cancelar once a dialog that stays open after saving has saved', () => {
    render(
      <DialogFrame open onClose={vi.fn()}>
        <DialogForm
          title="Nueva campaña"
          submitLabel="Guardar"
          isSubmitting={false}
          isSaved
          onSubmit={vi.fn()}
        >
          <input aria-label="Nombre" />
        </DialogForm>
      </DialogFrame>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Nueva campaña' });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cerrar', 'Guardar']);
  });

  it('ends a dialog that only shows things in Cerrar, after its own actions', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <DialogFrame open onClose={onClose}>
        <DialogView title="Envíos" actions={<button>Reintentar</button>}>
          Nada que mostrar
        </DialogView>
      </DialogFrame>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Envíos' });
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Reintentar', 'Cerrar']);
    expect(within(dialog).queryByRole('button', { name: 'Cancelar' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('shows a spinner while the record of an edit dialog loads, and what failed if it does', () => {
    const { rerender } = render(
      <DialogFrame open onClose={vi.fn()}>
        <DialogLoading title="Editar conexión" isError={false} errorText="No se pudo cargar" />
      </DialogFrame>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Editar conexión' });
    expect(within(dialog).getByRole('status', { name: 'Cargando…' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeTruthy();

    rerender(
      <DialogFrame open onClose={vi.fn()}>
        <DialogLoading title="Editar conexión" isError errorText="No se pudo cargar" />
      </DialogFrame>,
    );
    expect(within(dialog).getByRole('alert').textContent).toBe('No se pudo cargar');
  });

  it('gives each opening a fresh body', async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <DialogFrame open onClose={vi.fn()} sessionKey={1}>
        <DialogView title="Nota">
          <input aria-label="Texto" />
        </DialogView>
      </DialogFrame>,
    );
    await user.type(screen.getByRole('textbox', { name: 'Texto' }), 'hola');
    rerender(
      <DialogFrame open onClose={vi.fn()} sessionKey={2}>
        <DialogView title="Nota">
          <input aria-label="Texto" />
        </DialogView>
      </DialogFrame>,
    );
    expect((screen.getByRole('textbox', { name: 'Texto' }) as HTMLInputElement).value).toBe('');
  });
});
