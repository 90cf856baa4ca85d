import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import PlayArrowOutlinedIcon from '@mui/icons-material/PlayArrowOutlined';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { integrationProblems, type IntegrationTestSessionInput } from '@atendi/shared';
import { errorText } from '../../api/toasts';
import { testDialogflowSession } from './queue-integrations.api';

const sameInput = (a: IntegrationTestSessionInput, b: IntegrationTestSessionInput) =>
  a.projectName === b.projectName &&
  a.language === b.language &&
  a.jsonContent === b.jsonContent &&
  a.integrationId === b.integrationId;

// "Test session": asks the Dialogflow agent once with the form's values, before they are saved.
export const DialogflowSessionTest = ({
  projectName,
  language,
  jsonContent,
  hasStoredKey,
  integrationId,
  disabled,
}: {
  projectName: string;
  language: string;
  jsonContent: string;
  hasStoredKey: boolean;
  // When editing: the API then tests the stored key if no other is given.
  integrationId?: number;
  disabled?: boolean;
}) => {
  const { t } = useTranslation();
  const input: IntegrationTestSessionInput = {
    projectName: projectName.trim(),
    language: language.trim(),
    jsonContent: jsonContent.trim(),
    ...(integrationId === undefined ? {} : { integrationId }),
  };
  // The same rule the save follows: a project, a language and a usable key (new or stored).
  const ready =
    Object.keys(
      integrationProblems({
        type: 'dialogflow',
        urlN8N: '',
        typebotSlug: '',
        projectName,
        language,
        jsonContent,
        hasJsonContent: hasStoredKey,
      }),
    ).length === 0;
  // Told in place, beside the values it is about.
  const test = useMutation({ mutationFn: testDialogflowSession, meta: { silent: true } });
  // A result is about the values it was asked with: once they change it no longer applies.
  const answersCurrent = test.variables !== undefined && sameInput(test.variables, input);

  return (
    <Stack
      spacing={1.5}
      sx={{
        alignItems: 'flex-start',
      }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{
          alignItems: { sm: 'center' },
        }}
      >
        <Button
          variant="outlined"
          size="small"
          disabled={disabled || !ready || test.isPending}
          startIcon={
            test.isPending ? (
              <CircularProgress
                size={16}
                color="inherit"
                aria-label={t('queueIntegrations.form.testing')}
              />
            ) : (
              <PlayArrowOutlinedIcon />
            )
          }
          onClick={() => test.mutate(input)}
        >
          {t('queueIntegrations.form.testSession')}
        </Button>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('queueIntegrations.form.testSessionHint')}
        </Typography>
      </Stack>
      {answersCurrent && test.isSuccess && (
        <Alert severity="success" sx={{ alignSelf: 'stretch' }}>
          <Box sx={{ fontWeight: 500 }}>
            {test.data.intent
              ? t('queueIntegrations.form.testConnected', { intent: test.data.intent })
              : t('queueIntegrations.form.testConnectedNoIntent')}
          </Box>
          {test.data.texts.map((text, index) => (
            <Box key={index} sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}>
              {text}
            </Box>
          ))}
          <Typography
            variant="caption"
            component="div"
            sx={{
              color: 'text.secondary',
              mt: 0.5,
            }}
          >
            {t('queueIntegrations.form.testDuration', { ms: test.data.durationMs })}
          </Typography>
        </Alert>
      )}
      {answersCurrent && test.isError && (
        <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
          {errorText(test.error)}
        </Alert>
      )}
    </Stack>
  );
};
