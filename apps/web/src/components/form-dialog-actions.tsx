import { Button, CircularProgress, DialogActions } from '@mui/material';
import type { ReactNode } from 'react';

type FormButtonsProps = {
  onCancel: () => void;
  cancelLabel: ReactNode;
  submitLabel: ReactNode;
  isSubmitting: boolean;
};

// Cancel and submit of a form; both wait while the form is being sent, the submit with a spinner.
export const FormButtons = ({
  onCancel,
  cancelLabel,
  submitLabel,
  isSubmitting,
}: FormButtonsProps) => (
  <>
    <Button onClick={onCancel} disabled={isSubmitting}>
      {cancelLabel}
    </Button>
    <Button
      type="submit"
      variant="contained"
      disabled={isSubmitting}
      startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {submitLabel}
    </Button>
  </>
);

export const FormDialogActions = (props: FormButtonsProps) => (
  <DialogActions>
    <FormButtons {...props} />
  </DialogActions>
);
