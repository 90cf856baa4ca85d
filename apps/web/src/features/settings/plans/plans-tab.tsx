import { useState } from 'react';
import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import SyncIcon from '@mui/icons-material/Sync';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { MB } from '@atendi/shared';
import { formatAiCount } from '../../../components/ai-usage';
import { formatBytes } from '../../../lib/bytes';
import { toastOperationError } from '../shared/admin-errors';
import { AdminTable, AdminToolbar, useAdminDelete } from '../shared/admin-table';
import { PlanFormDialog } from './plan-form-dialog';
import { planFeatures, useDeletePlan, usePlans, useSyncPlanPrice, type Plan } from './plans.api';
import { formatMoney } from '../../../lib/money';

type FormState = { open: boolean; plan: Plan | null };

export const PlansTab = () => {
  const { t, i18n } = useTranslation();
  const plans = usePlans();
  const deletePlan = useDeletePlan();
  const syncPrice = useSyncPlanPrice();
  const [form, setForm] = useState<FormState>({ open: false, plan: null });
  const remove = useAdminDelete<Plan>({
    remove: {
      mutate: (plan, options) => deletePlan.mutate(plan.id, options),
      isPending: deletePlan.isPending,
    },
    deletedText: t('settings.plans.deleted'),
    title: (plan) => t('settings.plans.deleteTitle', { name: plan?.name ?? '' }),
    message: t('settings.plans.deleteText'),
  });

  // A limit of 0 means unlimited.
  const limitText = (limit: number) => (limit > 0 ? String(limit) : t('settings.plans.unlimited'));

  const sync = (plan: Plan) =>
    syncPrice.mutate(plan.id, {
      onSuccess: (saved) =>
        toast.success(
          t('settings.plans.priceSynced', { name: saved.name, priceId: saved.stripePriceId ?? '' }),
        ),
      onError: toastOperationError,
    });

  // Plans without a price read as unavailable on the companies' subscribe page until synced.
  const withoutPrice = (plans.data ?? []).filter((plan) => !plan.stripePriceId).length;

  return (
    <Stack spacing={2}>
      {withoutPrice > 0 && (
        <Alert severity="warning" data-testid="plans-without-price">
          {t('settings.plans.withoutPrice', { count: withoutPrice })}
        </Alert>
      )}
      <AdminToolbar
        addLabel={t('settings.plans.add')}
        onAdd={() => setForm({ open: true, plan: null })}
      />
      <AdminTable
        label={t('settings.tabs.plans')}
        rows={plans.data ?? []}
        nameOf={(plan) => plan.name}
        isPending={plans.isPending}
        isEmpty={plans.isSuccess && plans.data.length === 0}
        emptyText={t('settings.plans.empty')}
        columns={[
          { label: t('settings.plans.name'), sx: { fontWeight: 600 }, cell: (plan) => plan.name },
          {
            label: t('settings.plans.users'),
            align: 'center',
            cell: (plan) => limitText(plan.users),
          },
          {
            label: t('settings.plans.connections'),
            align: 'center',
            cell: (plan) => limitText(plan.connections),
          },
          {
            label: t('settings.plans.queues'),
            align: 'center',
            cell: (plan) => limitText(plan.queues),
          },
          {
            // Without the AI agents feature its limits do not apply.
            label: t('settings.plans.ai'),
            align: 'center',
            cell: (plan) =>
              plan.useOpenAi
                ? plan.aiMessages > 0
                  ? t('settings.plans.aiPerMonth', {
                      agents: limitText(plan.aiAgents),
                      messages: formatAiCount(plan.aiMessages, i18n.language),
                    })
                  : t('settings.plans.aiUnlimitedMessages', { agents: limitText(plan.aiAgents) })
                : '—',
          },
          {
            label: t('storage.title'),
            align: 'center',
            sx: { whiteSpace: 'nowrap' },
            cell: (plan) =>
              plan.storageMb > 0
                ? formatBytes(plan.storageMb * MB, i18n.language)
                : t('settings.plans.unlimited'),
          },
          {
            label: t('settings.plans.value'),
            align: 'right',
            sx: { whiteSpace: 'nowrap' },
            cell: (plan) => formatMoney(plan.value, i18n.language, plan.currency),
          },
          {
            label: t('settings.plans.features'),
            cell: (plan) => (
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                {planFeatures
                  .filter((feature) => plan[feature])
                  .map((feature) => (
                    <Chip
                      key={feature}
                      size="small"
                      variant="outlined"
                      label={t(`settings.plans.flags.${feature}`)}
                    />
                  ))}
              </Box>
            ),
          },
          {
            label: t('settings.plans.price'),
            cell: (plan) =>
              plan.stripePriceId ? (
                <Typography
                  variant="body2"
                  component="span"
                  sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
                >
                  {plan.stripePriceId}
                </Typography>
              ) : (
                <Chip
                  size="small"
                  variant="outlined"
                  color="warning"
                  label={t('settings.plans.noPrice')}
                />
              ),
          },
        ]}
        actions={[
          {
            label: t('settings.plans.syncPrice'),
            icon: <SyncIcon fontSize="small" />,
            onClick: sync,
            disabled: () => syncPrice.isPending,
          },
          {
            label: t('settings.edit'),
            icon: <EditIcon fontSize="small" />,
            onClick: (plan) => setForm({ open: true, plan }),
          },
          {
            label: t('settings.delete'),
            icon: <DeleteIcon fontSize="small" />,
            onClick: remove.ask,
          },
        ]}
      />
      <PlanFormDialog
        open={form.open}
        plan={form.plan}
        onClose={() => setForm({ open: false, plan: null })}
      />
      {remove.dialog}
    </Stack>
  );
};
