import { Box, IconButton, Tooltip } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ERROR_TOAST_MS } from '../../api/toasts';

// A monospace block that scrolls sideways on narrow screens; with copyLabel, a copy button.
export const CodeBlock = ({
  code,
  copyLabel,
  testId,
}: {
  code: string;
  copyLabel?: string;
  testId?: string;
}) => {
  const { t } = useTranslation();

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t('messagesApi.copied'));
    } catch {
      toast.error(t('messagesApi.copyFailed'), { autoClose: ERROR_TOAST_MS });
    }
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        component="pre"
        data-testid={testId}
        sx={{
          m: 0,
          p: 1.5,
          pr: copyLabel ? 6 : 1.5,
          bgcolor: 'action.hover',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflowX: 'auto',
          fontFamily: 'monospace',
          fontSize: '0.8125rem',
          lineHeight: 1.6,
          whiteSpace: 'pre',
        }}
      >
        {code}
      </Box>
      {copyLabel && (
        <Tooltip title={copyLabel}>
          <IconButton
            aria-label={copyLabel}
            size="small"
            onClick={() => void copy()}
            sx={{ position: 'absolute', top: 6, right: 6 }}
          >
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
};
