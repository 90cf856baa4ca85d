import { Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MessagesApiDocs } from './messages-api-docs';
import { MediaSendForm, TextSendForm } from './send-forms';

// SPEC §2 Messages API: how customers' systems send WhatsApp messages, and two forms to try it.
export const MessagesApiPage = () => {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <Stack spacing={1}>
        <Typography variant="h5" component="h1">
          {t('messagesApi.title')}
        </Typography>
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('messagesApi.intro')}
        </Typography>
      </Stack>

      <MessagesApiDocs />

      <Stack component="section" spacing={2} aria-labelledby="messages-api-test-title">
        <Stack spacing={0.5}>
          <Typography variant="h6" component="h2" id="messages-api-test-title">
            {t('messagesApi.test.title')}
          </Typography>
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('messagesApi.test.intro')}
          </Typography>
        </Stack>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{
            alignItems: { xs: 'stretch', md: 'flex-start' },
          }}
        >
          <TextSendForm />
          <MediaSendForm />
        </Stack>
      </Stack>
    </Stack>
  );
};
