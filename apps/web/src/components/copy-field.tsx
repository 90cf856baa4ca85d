import type { ReactNode } from 'react';
import {
  IconButton,
  InputAdornment,
  TextField,
  Tooltip,
  type SxProps,
  type Theme,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ERROR_TOAST_MS } from '../api/toasts';

type CopyButtonProps = {
  text: string;
  // The button's name and tooltip ("Copiar token").
  label: string;
  // The toast once copied ("Token copiado.").
  copiedText: string;
  disabled?: boolean;
  edge?: 'end';
  size?: 'small';
  sx?: SxProps<Theme>;
};

// The one copy button: copies its text and says so; where the browser refuses, it says to copy by hand.
export const CopyButton = ({ text, label, copiedText, ...button }: CopyButtonProps) => {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(copiedText);
    } catch {
      toast.error(t('common.copyFailed'), { autoClose: ERROR_TOAST_MS });
    }
  };
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={() => void copy()} {...button}>
        <ContentCopyIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
};

// A value to copy (a token, a signing secret): read-only, monospace, the copy button at its end, after
// any actions of its own.
export const CopyField = ({
  label,
  value,
  helperText,
  copyLabel,
  copiedText,
  actions,
}: {
  label: string;
  value: string;
  helperText: ReactNode;
  copyLabel: string;
  copiedText: string;
  actions?: ReactNode;
}) => (
  <TextField
    label={label}
    value={value}
    fullWidth
    helperText={helperText}
    slotProps={{
      input: {
        readOnly: true,
        sx: { fontFamily: 'monospace' },
        endAdornment: (
          <InputAdornment position="end">
            <CopyButton
              text={value}
              label={copyLabel}
              copiedText={copiedText}
              disabled={!value}
              edge="end"
            />
            {actions}
          </InputAdornment>
        ),
      },
    }}
  />
);
