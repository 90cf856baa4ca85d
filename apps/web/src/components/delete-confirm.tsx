import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { ConfirmDialog } from './confirm-dialog';

// A row's delete button asks first; once the API deleted it, the row leaves the lists and a toast
// says so. A failure is toasted like every mutation's (api/query-client.ts).
export const useDeleteConfirm = <R,>({
  remove,
  onDeleted,
  deletedText,
  title,
  message,
  confirmLabel,
}: {
  remove: (row: R) => Promise<unknown>;
  onDeleted: (row: R) => void;
  deletedText: string;
  title: (row: R) => string;
  message: (row: R) => string;
  confirmLabel: string;
}) => {
  // The row stays after closing, so the texts do not change while the dialog fades out.
  const [row, setRow] = useState<R | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: (_data, deleted) => {
      onDeleted(deleted);
      toast.success(deletedText);
    },
    onSettled: () => setIsOpen(false),
  });

  const ask = (target: R) => {
    setRow(target);
    setIsOpen(true);
  };

  const dialog = (
    <ConfirmDialog
      open={isOpen}
      title={row === null ? '' : title(row)}
      message={row === null ? '' : message(row)}
      confirmLabel={confirmLabel}
      isDestructive
      isBusy={mutation.isPending}
      onConfirm={() => isOpen && row !== null && mutation.mutate(row)}
      onClose={() => setIsOpen(false)}
    />
  );

  return { ask, dialog };
};
