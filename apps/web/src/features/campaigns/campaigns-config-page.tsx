import { useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormHelperText,
  Grid,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/Cancel';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Controller,
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldError,
} from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  CAMPAIGN_BUILTIN_VARIABLES,
  CAMPAIGN_DAILY_CAP_MAX,
  campaignSettingsOf,
  campaignSettingsSchema,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  WARM_UP_FIRST_DAY,
  type CampaignSettings,
} from '@atendi/shared';
import { errorText, toastError } from '../../api/toasts';
import { LoadingBox } from '../../components/loading-box';
import { SwitchField } from '../../components/switch-field';
import { waitBeforeSubmit } from '../../lib/form-delay';
import { registerMui } from '../../lib/forms';
import {
  campaignSettingsKey,
  campaignSettingsQuery,
  duplicateKeyRows,
  saveCampaignSettings,
} from './campaign-settings.api';

type FormInput = z.input<typeof campaignSettingsSchema>;

// The shared schema's limits, for the editors' own checks and texts.
const MAX_VARIABLES = 100;
const MAX_KEYWORDS = 20;
const MAX_KEYWORD_LENGTH = 30;

// The shared schema's messages are the API's; the form shows its own, by the kind of issue.
const keyErrorText = (error: FieldError | undefined) => {
  if (!error) return undefined;
  if (error.type === 'too_small') return 'validation.required';
  if (error.type === 'too_big') return 'campaignSettings.validation.keyTooLong';
  return 'campaignSettings.validation.keyFormat';
};

// SPEC §9 intervals: one select each, the options the shared constants allow.
const IntervalSelect = ({
  control,
  name,
  options,
  optionLabel,
}: {
  control: Control<FormInput, unknown, CampaignSettings>;
  name: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval';
  options: readonly number[];
  optionLabel: (value: number) => string;
}) => {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          id={`campaign-settings-${name}`}
          label={t(`campaignSettings.${name}.label`)}
          helperText={
            fieldState.error
              ? t('campaignSettings.validation.option')
              : t(`campaignSettings.${name}.help`)
          }
          error={Boolean(fieldState.error)}
          name={field.name}
          inputRef={field.ref}
          value={field.value}
          onBlur={field.onBlur}
          onChange={(event) => field.onChange(Number(event.target.value))}
        >
          {options.map((value) => (
            <MenuItem key={value} value={value}>
              {optionLabel(value)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
};

// The words that opt a recipient out: chips, one field to add another.
const KeywordsEditor = ({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (keywords: string[]) => void;
  error?: string;
}) => {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const isFull = value.length >= MAX_KEYWORDS;

  const add = () => {
    const word = text.trim();
    if (!word) return;
    if (word.length > MAX_KEYWORD_LENGTH) {
      setProblem('campaignSettings.validation.keywordTooLong');
      return;
    }
    if (value.some((existing) => existing.toLowerCase() === word.toLowerCase())) {
      setProblem('campaignSettings.validation.keywordExists');
      return;
    }
    onChange([...value, word]);
    setText('');
    setProblem(null);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // Enter adds the word instead of sending the form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  const message = problem
    ? t(problem)
    : error
      ? t(error)
      : isFull
        ? t('campaignSettings.optOut.full', { count: MAX_KEYWORDS })
        : t('campaignSettings.optOut.hint');

  return (
    <Stack spacing={1.5}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{
          flexWrap: 'wrap',
        }}
      >
        {value.map((word) => (
          <Chip
            key={word}
            label={word}
            onDelete={() => onChange(value.filter((existing) => existing !== word))}
            deleteIcon={<CancelIcon titleAccess={t('campaignSettings.optOut.remove', { word })} />}
          />
        ))}
        {value.length === 0 && (
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('campaignSettings.optOut.empty')}
          </Typography>
        )}
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'flex-start',
        }}
      >
        <TextField
          size="small"
          label={t('campaignSettings.optOut.new')}
          value={text}
          disabled={isFull}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          error={Boolean(problem || error)}
          helperText={message}
          sx={{ flexGrow: 1, maxWidth: 360 }}
        />
        <Button
          variant="outlined"
          startIcon={<AddIcon />}
          disabled={isFull || !text.trim()}
          onClick={add}
          sx={{ mt: 0.25 }}
        >
          {t('campaignSettings.optOut.add')}
        </Button>
      </Stack>
    </Stack>
  );
};

// Issue 39: what WhatsApp Web (Baileys) numbers may send. The Cloud API follows the tier Meta gives
// each number instead, which the section says so that nobody looks for it here.
const NumberLimits = ({ control }: { control: Control<FormInput, unknown, CampaignSettings> }) => {
  const { t, i18n } = useTranslation();
  const max = new Intl.NumberFormat(i18n.language).format(CAMPAIGN_DAILY_CAP_MAX);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('campaignSettings.limits.title')}
        </Typography>
        <Controller
          control={control}
          name="dailyCap"
          render={({ field, fieldState }) => (
            <TextField
              type="number"
              id="campaign-settings-dailyCap"
              label={t('campaignSettings.limits.dailyCap')}
              helperText={
                fieldState.error
                  ? t('campaignSettings.validation.dailyCap', { max })
                  : t('campaignSettings.limits.dailyCapHelp')
              }
              error={Boolean(fieldState.error)}
              name={field.name}
              inputRef={field.ref}
              // An emptied field is no number: the check asks for one instead of saving 0.
              value={Number.isNaN(field.value) ? '' : field.value}
              onBlur={field.onBlur}
              onChange={(event) =>
                field.onChange(event.target.value === '' ? Number.NaN : Number(event.target.value))
              }
              slotProps={{ htmlInput: { min: 0, max: CAMPAIGN_DAILY_CAP_MAX, step: 1 } }}
              sx={{ maxWidth: 360 }}
            />
          )}
        />
        <Box>
          <SwitchField
            control={control}
            name="randomPacing"
            label={t('campaignSettings.limits.randomPacing')}
          />
          <FormHelperText sx={{ mt: 0 }}>
            {t('campaignSettings.limits.randomPacingHelp')}
          </FormHelperText>
        </Box>
        <Box>
          <SwitchField
            control={control}
            name="warmUp"
            label={t('campaignSettings.limits.warmUp')}
          />
          <FormHelperText sx={{ mt: 0 }}>
            {t('campaignSettings.limits.warmUpHelp', { first: WARM_UP_FIRST_DAY })}
          </FormHelperText>
        </Box>
        <Alert severity="info">{t('campaignSettings.limits.cloudApi')}</Alert>
      </Stack>
    </Paper>
  );
};

const CampaignSettingsForm = ({ settings }: { settings: CampaignSettings }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm<FormInput, unknown, CampaignSettings>({
    resolver: zodResolver(campaignSettingsSchema),
    defaultValues: settings,
  });
  const {
    control,
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = form;
  const variables = useFieldArray({ control, name: 'variables' });
  const watchedVariables = useWatch({ control, name: 'variables' });
  const duplicates = duplicateKeyRows(watchedVariables ?? []);

  const onSubmit = async (values: CampaignSettings) => {
    await waitBeforeSubmit();
    try {
      const list = await saveCampaignSettings(values);
      queryClient.setQueryData(campaignSettingsKey, list);
      reset(campaignSettingsOf(list));
      toast.success(t('campaignSettings.saved'));
    } catch (error) {
      toastError(error);
    }
  };

  const seconds = (value: number) => t('campaignSettings.seconds', { count: value });

  return (
    <Stack
      component="form"
      noValidate
      onSubmit={handleSubmit(onSubmit)}
      spacing={3}
      aria-label={t('menu.campaignsConfig')}
    >
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('campaignSettings.intervals')}
        </Typography>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 4 }}>
            <IntervalSelect
              control={control}
              name="messageInterval"
              options={MESSAGE_INTERVAL_OPTIONS}
              optionLabel={seconds}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <IntervalSelect
              control={control}
              name="longerIntervalAfter"
              options={LONGER_INTERVAL_OPTIONS}
              optionLabel={(value) =>
                value === 0
                  ? t('campaignSettings.notUsed')
                  : t('campaignSettings.afterMessages', { count: value })
              }
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <IntervalSelect
              control={control}
              name="greaterInterval"
              options={LONGER_INTERVAL_OPTIONS}
              optionLabel={seconds}
            />
          </Grid>
        </Grid>
      </Paper>

      <NumberLimits control={control} />

      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t('campaignSettings.variables.title')}
          </Typography>
          <Alert severity="info">
            <Stack spacing={1}>
              <span>{t('campaignSettings.variables.help', { example: '{{clave}}' })}</span>
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {CAMPAIGN_BUILTIN_VARIABLES.map((name) => (
                  <li key={name}>
                    <Box component="code" sx={{ fontWeight: 600 }}>{`{{${name}}}`}</Box>
                    {': '}
                    {t(`campaignSettings.variables.builtIns.${name}`)}
                  </li>
                ))}
              </Box>
            </Stack>
          </Alert>
          {variables.fields.length === 0 && (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('campaignSettings.variables.empty')}
            </Typography>
          )}
          {variables.fields.map((field, index) => {
            const keyError = keyErrorText(errors.variables?.[index]?.key);
            const isDuplicate = duplicates[index] === true;
            return (
              <Stack
                key={field.id}
                direction={{ xs: 'column', sm: 'row' }}
                spacing={1}
                role="group"
                aria-label={t('campaignSettings.variables.row', { number: index + 1 })}
                sx={{
                  alignItems: { xs: 'stretch', sm: 'flex-start' },
                }}
              >
                <TextField
                  {...registerMui(register, `variables.${index}.key`)}
                  label={t('campaignSettings.variables.key')}
                  size="small"
                  error={Boolean(keyError)}
                  helperText={
                    keyError
                      ? t(keyError)
                      : isDuplicate
                        ? t('campaignSettings.variables.duplicate')
                        : undefined
                  }
                  slotProps={{
                    formHelperText: {
                      sx: isDuplicate && !keyError ? { color: 'warning.main' } : {},
                    },
                  }}
                  sx={{ width: { sm: 240 }, flexShrink: 0 }}
                />
                <TextField
                  {...registerMui(register, `variables.${index}.value`)}
                  label={t('campaignSettings.variables.value')}
                  size="small"
                  fullWidth
                  error={Boolean(errors.variables?.[index]?.value)}
                  helperText={
                    errors.variables?.[index]?.value
                      ? t('campaignSettings.validation.valueTooLong')
                      : undefined
                  }
                />
                <IconButton
                  aria-label={t('campaignSettings.variables.remove', { number: index + 1 })}
                  onClick={() => variables.remove(index)}
                  sx={{ alignSelf: { xs: 'flex-end', sm: 'flex-start' } }}
                >
                  <DeleteOutlineIcon />
                </IconButton>
              </Stack>
            );
          })}
          <Box>
            <Button
              size="small"
              startIcon={<AddIcon />}
              disabled={variables.fields.length >= MAX_VARIABLES}
              onClick={() => variables.append({ key: '', value: '' })}
            >
              {t('campaignSettings.variables.add')}
            </Button>
          </Box>
        </Stack>
      </Paper>

      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">
            {t('campaignSettings.optOut.title')}
          </Typography>
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('campaignSettings.optOut.help')}
          </Typography>
          <Controller
            control={control}
            name="optOutKeywords"
            render={({ field, fieldState }) => (
              <KeywordsEditor
                value={field.value}
                onChange={field.onChange}
                error={fieldState.error ? 'campaignSettings.validation.keywords' : undefined}
              />
            )}
          />
          <TextField
            {...registerMui(register, 'optOutMessage')}
            label={t('campaignSettings.optOut.message')}
            multiline
            minRows={2}
            fullWidth
            error={Boolean(errors.optOutMessage)}
            helperText={
              errors.optOutMessage
                ? t('campaignSettings.validation.messageTooLong')
                : t('campaignSettings.optOut.messageHelp')
            }
          />
        </Stack>
      </Paper>

      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('campaignSettings.save')}
        </Button>
      </Box>
    </Stack>
  );
};

// SPEC §2 Campaign settings (/campaigns-config): sending intervals, the limits of each WhatsApp Web
// number (issue 39), variables for the messages, the words that opt a recipient out and what they are
// told then; saved together.
export const CampaignsConfigPage = () => {
  const { t } = useTranslation();
  const query = useQuery(campaignSettingsQuery);

  let content;
  if (query.data) content = <CampaignSettingsForm settings={query.data} />;
  else if (query.error)
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void query.refetch()}>
            {t('campaignSettings.retry')}
          </Button>
        }
      >
        {t('campaignSettings.loadFailed', { reason: errorText(query.error) })}
      </Alert>
    );
  else content = <LoadingBox />;

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('menu.campaignsConfig')}
      </Typography>
      {content}
    </Stack>
  );
};
