import { useState, type Ref } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormHelperText,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import KeyOffIcon from '@mui/icons-material/KeyOffOutlined';
import { zodResolver } from '@hookform/resolvers/zod';
import { format } from 'date-fns';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  API_TOKEN_PREFIX,
  apiTokenAreas,
  apiTokenScopes,
  type ApiToken,
  type ApiTokenArea,
  type ApiTokenCreated,
  type ApiTokenScope,
} from '@atendi/shared';
import { getApiUrl } from '../../api/runtime-config';
import { errorText } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyField } from '../../components/copy-field';
import { DateField, INVALID_DATE } from '../../components/date-field';
import { DialogBody, DialogForm, DialogFrame, useDialogClose } from '../../components/dialog-frame';
import { namedFields, useDialogSave } from '../../components/dialog-save';
import { FormText } from '../../components/form-text';
import { formatDate, formatDateTime, parseDate } from '../../lib/dates';
import { useNow } from '../../lib/use-now';
import { AdminTable, AdminToolbar } from './shared/admin-table';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from './api-tokens.api';

// Issue 38: the company's API tokens. A token acts as the admin who made it, within its scopes (read
// or write per area, writing including reading); it is shown once, when made, and revoked at once.

const levels = ['none', 'read', 'write'] as const;
type Level = (typeof levels)[number];
type Levels = Record<ApiTokenArea, Level>;

// Today as the date field's value (yyyy-MM-dd), the first day a token may end on.
const today = () => format(new Date(), 'yyyy-MM-dd');

const formSchema = z.object({
  name: z.string().trim().min(1, 'validation.required').max(100, 'settings.apiTokens.nameLength'),
  scopes: z
    .record(z.enum(apiTokenAreas), z.enum(levels))
    .refine(
      (chosen) => Object.values(chosen).some((level) => level !== 'none'),
      'settings.apiTokens.scopesRequired',
    ),
  expiresAt: z
    .string()
    .refine(
      (value) => !value || (value !== INVALID_DATE && value >= today()),
      'settings.apiTokens.expiryInvalid',
    ),
});
type FormValues = z.infer<typeof formSchema>;

const defaults: FormValues = {
  name: '',
  scopes: Object.fromEntries(apiTokenAreas.map((area) => [area, 'none'])) as Levels,
  expiresAt: '',
};

// Only the highest of each area is sent: writing includes reading.
const scopesOf = (chosen: Levels): ApiTokenScope[] =>
  apiTokenAreas.flatMap((area) => {
    const level = chosen[area];
    return level === 'none' ? [] : [`${area}:${level}` as ApiTokenScope];
  });

// The token works through the whole chosen day, in the admin's time zone.
const endOfDay = (value: string) => {
  const [year, month, day] = value.split('-').map(Number);
  return new Date(year!, month! - 1, day!, 23, 59, 59, 999).toISOString();
};

// "Tickets: lectura"; a scope this screen does not know is shown as the server wrote it.
const useScopeLabel = () => {
  const { t } = useTranslation();
  return (scope: string) => {
    const [area, level] = scope.split(':');
    if (!apiTokenAreas.includes(area as ApiTokenArea) || (level !== 'read' && level !== 'write'))
      return scope;
    return t('settings.apiTokens.scope', {
      area: t(`settings.apiTokens.areas.${area}`),
      level: t(`settings.apiTokens.levels.${level}`),
    });
  };
};

// One row per area with "Leer" and "Escribir": writing checks reading too, and reading unchecked
// unchecks writing.
const ScopeMatrix = ({
  value,
  onChange,
  error,
  inputRef,
}: {
  value: Levels;
  onChange: (value: Levels) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) => {
  const { t } = useTranslation();
  const set = (area: ApiTokenArea, level: Level) => onChange({ ...value, [area]: level });
  return (
    <Box>
      <Typography variant="subtitle2">{t('settings.apiTokens.scopes')}</Typography>
      <Table size="small" aria-label={t('settings.apiTokens.scopes')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.apiTokens.area')}</TableCell>
            <TableCell align="center">{t('settings.apiTokens.read')}</TableCell>
            <TableCell align="center">{t('settings.apiTokens.write')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {apiTokenAreas.map((area, index) => {
            const name = t(`settings.apiTokens.areas.${area}`);
            return (
              <TableRow key={area}>
                <TableCell component="th" scope="row">
                  {name}
                </TableCell>
                <TableCell align="center" padding="checkbox">
                  <Checkbox
                    checked={value[area] !== 'none'}
                    onChange={(event) => set(area, event.target.checked ? 'read' : 'none')}
                    slotProps={{
                      input: {
                        'aria-label': t('settings.apiTokens.readArea', { area: name }),
                        // Where the form puts the focus when no scope is chosen.
                        ref: index === 0 ? inputRef : undefined,
                      },
                    }}
                  />
                </TableCell>
                <TableCell align="center" padding="checkbox">
                  {/* Reports are read only. */}
                  {apiTokenScopes.some((scope) => scope === `${area}:write`) && (
                    <Checkbox
                      checked={value[area] === 'write'}
                      onChange={(event) => set(area, event.target.checked ? 'write' : 'read')}
                      slotProps={{
                        input: { 'aria-label': t('settings.apiTokens.writeArea', { area: name }) },
                      }}
                    />
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <FormHelperText error={Boolean(error)}>
        {error ? t(error) : t('settings.apiTokens.scopesHint')}
      </FormHelperText>
    </Box>
  );
};

const ApiTokenForm = ({ onCreated }: { onCreated: (created: ApiTokenCreated) => void }) => {
  const { t } = useTranslation();
  const create = useCreateApiToken();
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: defaults });
  const save = useDialogSave(form, {
    save: (values) =>
      create.mutateAsync({
        name: values.name,
        scopes: scopesOf(values.scopes),
        ...(values.expiresAt ? { expiresAt: endOfDay(values.expiresAt) } : {}),
      }),
    savedText: t('settings.apiTokens.created'),
    // The dialog stays open to show the token, once.
    onSaved: onCreated,
    fields: namedFields<FormValues>(['name', 'scopes', 'expiresAt']),
  });
  return (
    <DialogForm
      title={t('settings.apiTokens.addTitle')}
      aria-label={t('settings.apiTokens.addTitle')}
      {...save}
      submitLabel={t('settings.apiTokens.create')}
    >
      <Stack spacing={2}>
        <FormText
          form={form}
          name="name"
          label={t('settings.apiTokens.name')}
          hint={t('settings.apiTokens.nameHint')}
          autoFocus
        />
        <Controller
          name="scopes"
          control={form.control}
          render={({ field, fieldState }) => (
            <ScopeMatrix
              value={field.value}
              onChange={field.onChange}
              inputRef={field.ref}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          name="expiresAt"
          control={form.control}
          render={({ field, fieldState }) => (
            <DateField
              kind="date"
              label={t('settings.apiTokens.expiresAt')}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              name={field.name}
              min={today()}
              fullWidth
              error={Boolean(fieldState.error)}
              helperText={
                fieldState.error?.message
                  ? t(fieldState.error.message)
                  : t('settings.apiTokens.expiresHint')
              }
            />
          )}
        />
      </Stack>
    </DialogForm>
  );
};

// The token just made, this once: copied now or lost.
const TokenShown = ({ created }: { created: ApiTokenCreated }) => {
  const { t } = useTranslation();
  const close = useDialogClose();
  return (
    <DialogBody
      title={t('settings.apiTokens.createdTitle', { name: created.name })}
      footer={
        <Button variant="contained" onClick={close}>
          {t('settings.apiTokens.done')}
        </Button>
      }
    >
      <Stack spacing={2}>
        <Alert severity="warning">{t('settings.apiTokens.shownOnce')}</Alert>
        <CopyField
          label={t('settings.apiTokens.token')}
          value={created.token}
          helperText={t('settings.apiTokens.tokenHint')}
          copyLabel={t('settings.apiTokens.copy')}
          copiedText={t('settings.apiTokens.copied')}
        />
      </Stack>
    </DialogBody>
  );
};

export const ApiTokensTab = () => {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const scopeLabel = useScopeLabel();
  const now = useNow();
  const [dialog, setDialog] = useState({ open: false, session: 0 });
  // Kept while the dialog fades out; a new opening starts with the form again.
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [isConfirming, setConfirming] = useState(false);

  const openDialog = () => {
    setCreated(null);
    setDialog((current) => ({ open: true, session: current.session + 1 }));
  };
  const closeDialog = () => setDialog((current) => ({ ...current, open: false }));

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => toast.success(t('settings.apiTokens.revoked')),
      onSettled: () => setConfirming(false),
    });
  };

  const rows = tokens.data?.tokens ?? [];
  const expiry = (token: ApiToken) => {
    const date = parseDate(token.expiresAt);
    if (!date) return t('settings.apiTokens.never');
    if (date.getTime() > now) return formatDate(date);
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <span>{formatDate(date)}</span>
        <Chip
          size="small"
          color="error"
          variant="outlined"
          label={t('settings.apiTokens.expired')}
        />
      </Stack>
    );
  };

  return (
    <Stack spacing={2}>
      <Stack spacing={1}>
        <Typography variant="body2" color="text.secondary">
          {t('settings.apiTokens.intro')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('settings.apiTokens.usage')}{' '}
          <Box component="code" sx={{ fontFamily: 'monospace' }}>
            {`Authorization: Bearer ${API_TOKEN_PREFIX}…`}
          </Box>
        </Typography>
        <Typography variant="body2">
          <Link href={`${getApiUrl()}/docs`} target="_blank" rel="noopener noreferrer">
            {t('settings.apiTokens.docs')}
          </Link>
        </Typography>
      </Stack>
      <AdminToolbar addLabel={t('settings.apiTokens.add')} onAdd={openDialog} />
      {tokens.isError ? (
        <Alert severity="error">{errorText(tokens.error)}</Alert>
      ) : (
        <AdminTable
          label={t('settings.tabs.api')}
          rows={rows}
          nameOf={(token) => token.name}
          isPending={tokens.isPending}
          isEmpty={tokens.isSuccess && rows.length === 0}
          emptyText={t('settings.apiTokens.empty')}
          columns={[
            {
              label: t('settings.apiTokens.name'),
              sx: { fontWeight: 600 },
              cell: (token) => token.name,
            },
            {
              label: t('settings.apiTokens.token'),
              sx: { fontFamily: 'monospace', whiteSpace: 'nowrap' },
              cell: (token) => `${token.prefix}…`,
            },
            {
              label: t('settings.apiTokens.scopes'),
              cell: (token) => (
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {token.scopes.map((scope) => (
                    <Chip
                      key={scope}
                      size="small"
                      variant="outlined"
                      color={scope.endsWith(':write') ? 'primary' : 'default'}
                      label={scopeLabel(scope)}
                    />
                  ))}
                </Box>
              ),
            },
            { label: t('settings.apiTokens.expiresAt'), cell: expiry },
            {
              label: t('settings.apiTokens.lastUsed'),
              cell: (token) =>
                token.lastUsedAt
                  ? formatDateTime(token.lastUsedAt)
                  : t('settings.apiTokens.neverUsed'),
            },
            {
              label: t('settings.apiTokens.createdBy'),
              cell: (token) => token.createdBy?.name ?? '—',
            },
          ]}
          actions={[
            {
              label: t('settings.apiTokens.revoke'),
              icon: <KeyOffIcon fontSize="small" />,
              onClick: (token) => {
                setRevoking(token);
                setConfirming(true);
              },
            },
          ]}
        />
      )}
      <DialogFrame
        open={dialog.open}
        onClose={closeDialog}
        sessionKey={dialog.session}
        // The token cannot be shown again: a stray click outside must not lose it.
        keepOnBackdropClick={created !== null}
      >
        {created ? <TokenShown created={created} /> : <ApiTokenForm onCreated={setCreated} />}
      </DialogFrame>
      <ConfirmDialog
        open={isConfirming}
        title={t('settings.apiTokens.revokeTitle', { name: revoking?.name ?? '' })}
        message={t('settings.apiTokens.revokeText')}
        confirmLabel={t('settings.apiTokens.revoke')}
        isDestructive
        isBusy={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setConfirming(false)}
        onExited={() => setRevoking(null)}
      />
    </Stack>
  );
};
