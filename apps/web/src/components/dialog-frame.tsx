import {
  createContext,
  Fragment,
  useContext,
  useEffect,
  useState,
  type FormEventHandler,
  type ReactNode,
} from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  useMediaQuery,
  useTheme,
  type SxProps,
  type Theme,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { thumbSized } from '../lib/thumb';
import { LoadingBox } from './loading-box';

// The one frame of every dialog of the app (issue 34): how it sizes, scrolls, closes and which
// footer it has. A dialog where something is edited ends in "Cancelar" and a submit, closes after a
// successful save (the page says so in a toast) and cannot be closed while it sends; a dialog that
// only shows things ends in "Cerrar".

type FrameContext = {
  close: () => void;
  closeSaved: () => void;
  setBusy: (isBusy: boolean) => void;
};

const FrameContext = createContext<FrameContext>({
  close: () => {},
  closeSaved: () => {},
  setBusy: () => {},
});

// The frame's close, for a body's own buttons.
export const useDialogClose = () => useContext(FrameContext).close;

// The close that ends a save: it closes although the body is still busy sending.
export const useDialogSaved = () => useContext(FrameContext).closeSaved;

// While a body is busy (sending), neither Escape, the backdrop nor its buttons close the dialog.
export const useDialogBusy = (isBusy: boolean) => {
  const { setBusy } = useContext(FrameContext);
  useEffect(() => {
    setBusy(isBusy);
    return () => setBusy(false);
  }, [isBusy, setBusy]);
};

type DialogFrameProps = {
  open: boolean;
  onClose: () => void;
  // A new value gives the opening a fresh body; the body stays while the dialog fades out.
  sessionKey?: number;
  maxWidth?: 'xs' | 'sm' | 'md' | 'lg';
  // Below `sm` the dialog takes the whole screen; a short question keeps its card.
  fullScreenOnPhone?: boolean;
  // Tall as the window allows (up to a cap) whatever the body shows: tabs then do not make the
  // dialog jump in height when switched.
  stableHeight?: boolean;
  // For what cannot be shown again: a stray click outside must not lose it (Escape still closes).
  keepOnBackdropClick?: boolean;
  // After the closing fade, for callers that keep the texts until then.
  onExited?: () => void;
  children: ReactNode;
};

export const DialogFrame = ({
  open,
  onClose,
  sessionKey,
  maxWidth = 'sm',
  fullScreenOnPhone = true,
  stableHeight = false,
  keepOnBackdropClick = false,
  onExited,
  children,
}: DialogFrameProps) => {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [isBusy, setBusy] = useState(false);
  const fullScreen = fullScreenOnPhone && isPhone;
  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        if (!isBusy && !(keepOnBackdropClick && reason === 'backdropClick')) onClose();
      }}
      fullWidth
      fullScreen={fullScreen}
      maxWidth={maxWidth}
      scroll="paper"
      slotProps={{
        transition: onExited ? { onExited } : undefined,
        // A full-screen dialog is a phone's: its buttons and fields are thumb-sized.
        paper: fullScreen
          ? { sx: thumbSized }
          : stableHeight
            ? { sx: { height: 'min(100% - 64px, 760px)' } }
            : {},
      }}
    >
      <FrameContext value={{ close: isBusy ? () => {} : onClose, closeSaved: onClose, setBusy }}>
        <Fragment key={sessionKey}>{children}</Fragment>
      </FrameContext>
    </Dialog>
  );
};

type BodyProps = {
  title: ReactNode;
  // Between the title and the scrolling content, e.g. tabs.
  header?: ReactNode;
  contentSx?: SxProps<Theme>;
  children: ReactNode;
};

// Title, content and footer. The content has dividers: the first outlined field's label then sits
// below the title's edge, never across it, and the content scrolls between a title and a footer that
// stay in view. For a body with a footer of its own; most use DialogForm or DialogView.
export const DialogBody = ({
  title,
  header,
  contentSx,
  children,
  footer,
}: BodyProps & { footer: ReactNode }) => (
  <>
    <DialogTitle>{title}</DialogTitle>
    {header}
    <DialogContent dividers sx={contentSx}>
      {children}
    </DialogContent>
    <DialogActions>{footer}</DialogActions>
  </>
);

type FormButtonsProps = {
  submitLabel: ReactNode;
  isSubmitting: boolean;
  submitDisabled?: boolean;
  // The id of the form the submit sends, when the buttons are not inside it.
  form?: string;
  // Saved already, in a dialog that stays open after saving: leaving loses nothing, so "Cerrar".
  isSaved?: boolean;
  onCancel?: () => void;
};

// "Cancelar" and the submit of a form; both wait while the form is being sent, the submit with a
// spinner.
export const FormButtons = ({
  submitLabel,
  isSubmitting,
  submitDisabled = false,
  form,
  isSaved = false,
  onCancel,
}: FormButtonsProps) => {
  const { t } = useTranslation();
  const close = useDialogClose();
  return (
    <>
      <Button onClick={onCancel ?? close} disabled={isSubmitting}>
        {isSaved ? t('common.close') : t('common.cancel')}
      </Button>
      <Button
        type="submit"
        form={form}
        variant="contained"
        disabled={isSubmitting || submitDisabled}
        startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {submitLabel}
      </Button>
    </>
  );
};

// A form in the frame: title, fields, "Cancelar" and the submit; the submit goes through the form's
// onSubmit (Enter in a field sends too).
export const DialogForm = ({
  onSubmit,
  isSubmitting,
  submitLabel,
  submitDisabled,
  isSaved,
  footer,
  'aria-label': ariaLabel,
  ...body
}: BodyProps &
  Omit<FormButtonsProps, 'onCancel' | 'form'> & {
    onSubmit: FormEventHandler<HTMLFormElement>;
    // In place of the buttons, for a form that is not always editable.
    footer?: ReactNode;
    'aria-label'?: string;
  }) => {
  useDialogBusy(isSubmitting);
  return (
    <Box
      component="form"
      noValidate
      onSubmit={onSubmit}
      aria-label={ariaLabel}
      // A flex column the dialog can shrink, so that only the content scrolls.
      sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
    >
      <DialogBody
        {...body}
        footer={
          footer ?? (
            <FormButtons
              submitLabel={submitLabel}
              isSubmitting={isSubmitting}
              submitDisabled={submitDisabled}
              isSaved={isSaved}
            />
          )
        }
      />
    </Box>
  );
};

// The "Cerrar" of a dialog that only shows things.
export const CloseButton = () => {
  const { t } = useTranslation();
  const close = useDialogClose();
  return <Button onClick={close}>{t('common.close')}</Button>;
};

// A dialog that shows things: title, content and "Cerrar" (after any actions of its own).
export const DialogView = ({ actions, ...body }: BodyProps & { actions?: ReactNode }) => (
  <DialogBody
    {...body}
    footer={
      <>
        {actions}
        <CloseButton />
      </>
    }
  />
);

// The body of an "edit" dialog while its record loads, or once loading it failed; "Cancelar", as the
// form it stands for.
export const DialogLoading = ({
  title,
  isError,
  errorText,
}: {
  title: ReactNode;
  isError: boolean;
  errorText: ReactNode;
}) => {
  const { t } = useTranslation();
  const close = useDialogClose();
  return (
    <DialogBody title={title} footer={<Button onClick={close}>{t('common.cancel')}</Button>}>
      {isError ? <Alert severity="error">{errorText}</Alert> : <LoadingBox />}
    </DialogBody>
  );
};

type RecordQuery<T> = { data: T | undefined; isError: boolean };

const LoadedRecord = <T,>({
  id,
  useRecord,
  title,
  loadFailed,
  children,
}: {
  id: number;
  useRecord: (id: number) => RecordQuery<T>;
  title: ReactNode;
  loadFailed: ReactNode;
  children: (record: T) => ReactNode;
}) => {
  const { data, isError } = useRecord(id);
  if (data) return children(data);
  return <DialogLoading title={title} isError={isError} errorText={loadFailed} />;
};

// The body of an add-or-edit dialog: with no id, the form of a new record; with one, the record loaded
// fresh from the API by `useRecord` (the feature's query hook), DialogLoading (under the edit title)
// while it loads or once it failed, then its form.
export const DialogRecord = <T,>({
  id,
  children,
  ...loading
}: {
  id: number | null;
  useRecord: (id: number) => RecordQuery<T>;
  title: ReactNode;
  loadFailed: ReactNode;
  children: (record: T | null) => ReactNode;
}) =>
  id === null ? (
    children(null)
  ) : (
    <LoadedRecord id={id} {...loading}>
      {children}
    </LoadedRecord>
  );
