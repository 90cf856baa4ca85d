import { useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Stack, TextField } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { aiProviderSchema, type AiProviderInput, type AiProviderView } from '@atendi/shared';
import { errorText } from '../../api/toasts';
import { useDialogSave } from '../../components/dialog-save';
import { registerMui } from '../../lib/forms';
import { promptsKeys, saveAiProvider, testAiProvider, useAiProvider } from './prompts.api';
import { DialogForm, DialogFrame, DialogLoading } from '../../components/dialog-frame';

type ProviderFormValues = { baseUrl: string; apiKey: string; removeKey: boolean };

// The key is write-only: it travels only when one was typed, or as null to remove the stored one.
const toProviderBody = (values: ProviderFormValues): AiProviderInput => ({
  baseUrl: values.baseUrl.trim() || null,
  ...(values.apiKey.trim()
    ? { apiKey: values.apiKey.trim() }
    : values.removeKey
      ? { apiKey: null }
      : {}),
});

const providerResolver: Resolver<ProviderFormValues, unknown, AiProviderInput> = zodResolver(
  z.preprocess((values: ProviderFormValues) => toProviderBody(values), aiProviderSchema),
);

type TestResult = { ok: true; count: number } | { ok: false; text: string };

const ProviderForm = ({ provider }: { provider: AiProviderView }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [testResult, setTestResult] = useState<TestResult | null>(null);
  const form = useForm<ProviderFormValues, unknown, AiProviderInput>({
    resolver: providerResolver,
    defaultValues: { baseUrl: provider.baseUrl ?? '', apiKey: '', removeKey: false },
  });
  const {
    register,
    setValue,
    getValues,
    trigger,
    watch,
    formState: { errors },
  } = form;
  const removeKey = watch('removeKey');
  const isKeySet = provider.keySet && !removeKey;

  // Lists the models of the provider as typed (unsaved: what the form holds, a key left blank being
  // the stored one), so a failure names the provider's own complaint before anything is saved.
  const test = useMutation({
    mutationFn: testAiProvider,
    meta: { silent: true },
    onMutate: () => setTestResult(null),
    onSuccess: ({ models }) => setTestResult({ ok: true, count: models.length }),
    onError: (error) => setTestResult({ ok: false, text: errorText(error) }),
  });

  const save = useDialogSave(form, {
    save: async (input) => {
      queryClient.setQueryData(promptsKeys.provider, await saveAiProvider(input));
      // Another provider knows other models.
      void queryClient.invalidateQueries({ queryKey: promptsKeys.providerModels });
    },
    savedText: t('prompts.provider.saved'),
  });
  const { isSubmitting } = save;

  const baseUrlError = errors.baseUrl;

  return (
    <DialogForm title={t('prompts.provider.title')} {...save} submitLabel={t('common.save')}>
      <Stack spacing={2.5}>
        <Alert severity={provider.platformDefault ? 'info' : 'warning'}>
          {provider.platformDefault
            ? t('prompts.provider.platformDefault')
            : t('prompts.provider.noPlatformDefault')}
        </Alert>
        <TextField
          {...registerMui(register, 'baseUrl')}
          type="url"
          label={t('prompts.provider.baseUrl')}
          placeholder="https://api.openai.com/v1"
          autoComplete="off"
          fullWidth
          disabled={isSubmitting}
          error={Boolean(baseUrlError)}
          helperText={
            baseUrlError ? t('prompts.validation.baseUrl') : t('prompts.provider.baseUrlHint')
          }
        />
        <Box>
          <TextField
            {...registerMui(register, 'apiKey')}
            type="password"
            label={t('prompts.provider.apiKey')}
            autoComplete="new-password"
            fullWidth
            disabled={isSubmitting}
            helperText={
              removeKey
                ? t('prompts.provider.keyWillBeRemoved')
                : provider.keySet
                  ? t('prompts.provider.keyKept')
                  : t('prompts.provider.keyHint')
            }
          />
          <Stack
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
              mt: 1,
            }}
          >
            {isKeySet ? (
              <Chip
                size="small"
                color="success"
                icon={<KeyIcon />}
                label={t('prompts.provider.keySet')}
              />
            ) : (
              <Chip size="small" label={t('prompts.provider.noKey')} />
            )}
            {provider.keySet && (
              <Button
                size="small"
                color={removeKey ? 'inherit' : 'error'}
                disabled={isSubmitting}
                onClick={() => setValue('removeKey', !removeKey, { shouldDirty: true })}
              >
                {removeKey ? t('prompts.provider.keepKey') : t('prompts.provider.removeKey')}
              </Button>
            )}
          </Stack>
        </Box>
        <Box>
          <Stack
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
            }}
          >
            <Button
              variant="outlined"
              onClick={() => {
                const parsed = aiProviderSchema.safeParse(toProviderBody(getValues()));
                if (parsed.success) test.mutate(parsed.data);
                else void trigger('baseUrl').then(() => setTestResult(null));
              }}
              disabled={test.isPending}
              startIcon={test.isPending ? <CircularProgress size={16} /> : undefined}
            >
              {t('prompts.provider.test')}
            </Button>
          </Stack>
          {testResult && (
            <Alert severity={testResult.ok ? 'success' : 'error'} role="status" sx={{ mt: 1 }}>
              {testResult.ok
                ? t('prompts.provider.testOk', { count: testResult.count })
                : testResult.text}
            </Alert>
          )}
        </Box>
      </Stack>
    </DialogForm>
  );
};

// "Proveedor de IA": the company's own OpenAI-compatible server (address and key), or the platform's.
export const AiProviderDialog = ({
  open,
  sessionKey,
  onClose,
}: {
  open: boolean;
  sessionKey: number;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const provider = useAiProvider(open);
  return (
    <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey}>
      {provider.data ? (
        <ProviderForm provider={provider.data} />
      ) : (
        <DialogLoading
          title={t('prompts.provider.title')}
          isError={provider.isError}
          errorText={errorText(provider.error)}
        />
      )}
    </DialogFrame>
  );
};
