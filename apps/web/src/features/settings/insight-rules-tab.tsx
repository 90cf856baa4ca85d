import { useState } from 'react';
import {
  Alert,
  Checkbox,
  Chip,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  MenuItem,
  Stack,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { INSIGHT_ACTIONS, SENTIMENTS, type InsightRuleView, type TagOption } from '@atendi/shared';
import { useTagOptions } from '../../api/queries/tags';
import { errorText } from '../../api/toasts';
import { DialogForm, DialogFrame } from '../../components/dialog-frame';
import { namedFields, useDialogSave } from '../../components/dialog-save';
import { FormText } from '../../components/form-text';
import { SelectField } from '../../components/select-field';
import { SwitchField } from '../../components/switch-field';
import { AdminTable, AdminToolbar, useAdminDelete } from './shared/admin-table';
import { useDeleteInsightRule, useInsightRules, useSaveInsightRule } from './insight-rules.api';

// Live insight's rules (issue 40): when a conversation's analysis meets a rule's condition (the
// customer's sentiment, the conversation over, the order's total), the rule tags the ticket or moves
// its kanban card. The analysis runs only with the liveInsight option on (Opciones).

const formSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'validation.required')
    .max(100, 'settings.insightRules.nameLength'),
  enabled: z.boolean(),
  sentiments: z.array(z.enum(SENTIMENTS)),
  finalOnly: z.boolean(),
  // Typed as text; '' asks for no total.
  minOrderTotal: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || (Number.isFinite(Number(value)) && Number(value) >= 0),
      'settings.insightRules.totalInvalid',
    ),
  actionType: z.enum(INSIGHT_ACTIONS),
  tagId: z.union([z.number(), z.literal('')]).refine((id) => id !== '', 'validation.required'),
});
type FormValues = z.input<typeof formSchema>;

const valuesOf = (rule: InsightRuleView | null): FormValues => ({
  name: rule?.name ?? '',
  enabled: rule?.enabled ?? true,
  sentiments: rule?.condition.sentiments ?? ['negativo'],
  finalOnly: rule?.condition.finalOnly ?? false,
  minOrderTotal:
    rule?.condition.minOrderTotal === null || rule?.condition.minOrderTotal === undefined
      ? ''
      : String(rule.condition.minOrderTotal),
  actionType: rule?.action.type ?? 'tag',
  tagId: rule?.action.tagId ?? '',
});

const RuleForm = ({ rule, tags }: { rule: InsightRuleView | null; tags: TagOption[] }) => {
  const { t } = useTranslation();
  const save = useSaveInsightRule();
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: valuesOf(rule),
  });
  const actionType = useWatch({ control: form.control, name: 'actionType' });
  // A card moves only to a lane: a tag marked kanban.
  const choices = actionType === 'lane' ? tags.filter((tag) => tag.kanban === 1) : tags;
  const saving = useDialogSave(form, {
    save: (values) =>
      save.mutateAsync({
        id: rule?.id ?? null,
        body: {
          name: values.name,
          enabled: values.enabled,
          condition: {
            sentiments: values.sentiments,
            finalOnly: values.finalOnly,
            minOrderTotal: values.minOrderTotal === '' ? null : Number(values.minOrderTotal),
          },
          action: { type: values.actionType, tagId: Number(values.tagId) },
        },
      }),
    savedText: t('settings.insightRules.saved'),
    fields: (error) => [
      ...namedFields<FormValues>(['name'])(error),
      ...(error.fields?.['action.tagId'] ? [['tagId', 'errors.ERR_VALIDATION'] as const] : []),
    ],
  });
  return (
    <DialogForm
      title={rule ? t('settings.insightRules.editTitle') : t('settings.insightRules.addTitle')}
      aria-label={rule ? t('settings.insightRules.editTitle') : t('settings.insightRules.addTitle')}
      {...saving}
      submitLabel={rule ? t('settings.edit') : t('settings.insightRules.add')}
    >
      <Stack spacing={2}>
        <FormText form={form} name="name" label={t('settings.insightRules.name')} autoFocus />
        <Controller
          name="sentiments"
          control={form.control}
          render={({ field: { value, onChange } }) => (
            <Stack>
              <FormLabel component="legend">{t('settings.insightRules.sentiments')}</FormLabel>
              <FormGroup row>
                {SENTIMENTS.map((sentiment) => (
                  <FormControlLabel
                    key={sentiment}
                    label={t(`settings.insightRules.sentiment.${sentiment}`)}
                    control={
                      <Checkbox
                        checked={value.includes(sentiment)}
                        onChange={(event) =>
                          onChange(
                            event.target.checked
                              ? [...value, sentiment]
                              : value.filter((one) => one !== sentiment),
                          )
                        }
                      />
                    }
                  />
                ))}
              </FormGroup>
              <FormHelperText>{t('settings.insightRules.sentimentsHint')}</FormHelperText>
            </Stack>
          )}
        />
        <SwitchField
          control={form.control}
          name="finalOnly"
          label={t('settings.insightRules.finalOnly')}
        />
        <FormText
          form={form}
          name="minOrderTotal"
          label={t('settings.insightRules.minOrderTotal')}
          hint={t('settings.insightRules.minOrderTotalHint')}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
        />
        <SelectField
          control={form.control}
          name="actionType"
          label={t('settings.insightRules.action')}
        >
          {INSIGHT_ACTIONS.map((type) => (
            <MenuItem key={type} value={type}>
              {t(`settings.insightRules.actions.${type}`)}
            </MenuItem>
          ))}
        </SelectField>
        <SelectField
          control={form.control}
          name="tagId"
          label={
            actionType === 'lane' ? t('settings.insightRules.lane') : t('settings.insightRules.tag')
          }
          error={Boolean(form.formState.errors.tagId)}
          helperText={
            form.formState.errors.tagId?.message
              ? t(form.formState.errors.tagId.message)
              : choices.length === 0
                ? t(
                    actionType === 'lane'
                      ? 'settings.insightRules.noLanes'
                      : 'settings.insightRules.noTags',
                  )
                : undefined
          }
        >
          {choices.map((tag) => (
            <MenuItem key={tag.id} value={tag.id}>
              {tag.name}
            </MenuItem>
          ))}
        </SelectField>
        <SwitchField
          control={form.control}
          name="enabled"
          label={t('settings.insightRules.enabled')}
        />
      </Stack>
    </DialogForm>
  );
};

export const InsightRulesTab = () => {
  const { t } = useTranslation();
  const rules = useInsightRules();
  const tags = useTagOptions();
  const remove = useDeleteInsightRule();
  const [dialog, setDialog] = useState<{
    open: boolean;
    rule: InsightRuleView | null;
    session: number;
  }>({ open: false, rule: null, session: 0 });
  const open = (rule: InsightRuleView | null) =>
    setDialog((current) => ({ open: true, rule, session: current.session + 1 }));
  const deleting = useAdminDelete<InsightRuleView>({
    remove: {
      mutate: (rule, options) => remove.mutate(rule.id, options),
      isPending: remove.isPending,
    },
    deletedText: t('settings.insightRules.deleted'),
    title: (rule) => t('settings.insightRules.deleteTitle', { name: rule?.name ?? '' }),
    message: t('settings.insightRules.deleteText'),
  });
  const tagName = (id: number) => tags.data?.find((tag) => tag.id === id)?.name ?? '—';
  const conditionText = (rule: InsightRuleView) => {
    const { sentiments, finalOnly, minOrderTotal } = rule.condition;
    return [
      sentiments.length
        ? sentiments.map((s) => t(`settings.insightRules.sentiment.${s}`)).join(' / ')
        : t('settings.insightRules.anySentiment'),
      finalOnly ? t('settings.insightRules.finalShort') : '',
      minOrderTotal === null ? '' : t('settings.insightRules.totalShort', { total: minOrderTotal }),
    ]
      .filter(Boolean)
      .join(' · ');
  };
  const rows = rules.data ?? [];
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('settings.insightRules.intro')}
      </Typography>
      <AdminToolbar addLabel={t('settings.insightRules.add')} onAdd={() => open(null)} />
      {rules.isError ? (
        <Alert severity="error">{errorText(rules.error)}</Alert>
      ) : (
        <AdminTable
          label={t('settings.tabs.insight')}
          rows={rows}
          nameOf={(rule) => rule.name}
          isPending={rules.isPending}
          isEmpty={rules.isSuccess && rows.length === 0}
          emptyText={t('settings.insightRules.empty')}
          columns={[
            {
              label: t('settings.insightRules.name'),
              sx: { fontWeight: 600 },
              cell: (rule) => rule.name,
            },
            { label: t('settings.insightRules.condition'), cell: conditionText },
            {
              label: t('settings.insightRules.action'),
              cell: (rule) =>
                t(`settings.insightRules.actionText.${rule.action.type}`, {
                  tag: tagName(rule.action.tagId),
                }),
            },
            {
              label: t('settings.insightRules.state'),
              cell: (rule) => (
                <Chip
                  size="small"
                  variant="outlined"
                  color={rule.enabled ? 'success' : 'default'}
                  label={
                    rule.enabled ? t('settings.insightRules.on') : t('settings.insightRules.off')
                  }
                />
              ),
            },
          ]}
          actions={[
            { label: t('settings.edit'), icon: <EditIcon fontSize="small" />, onClick: open },
            {
              label: t('settings.delete'),
              icon: <DeleteIcon fontSize="small" />,
              onClick: deleting.ask,
            },
          ]}
        />
      )}
      <DialogFrame
        open={dialog.open}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
        sessionKey={dialog.session}
      >
        <RuleForm rule={dialog.rule} tags={tags.data ?? []} />
      </DialogFrame>
      {deleting.dialog}
    </Stack>
  );
};
