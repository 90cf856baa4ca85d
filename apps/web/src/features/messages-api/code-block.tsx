import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/copy-field';

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
        <CopyButton
          text={code}
          label={copyLabel}
          copiedText={t('messagesApi.copied')}
          size="small"
          sx={{ position: 'absolute', top: 6, right: 6 }}
        />
      )}
    </Box>
  );
};
