import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import SyncIcon from '@mui/icons-material/Sync';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { MB } from '@atendi/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingBox } from '../../../components/loading-box';
import { formatBytes } from '../../../lib/bytes';
import { toastOperationError } from '../shared/admin-errors';
import { PlanFormDialog } from './plan-form-dialog';
import {
  formatPlanValue,
  planFeatures,
  useDeletePlan,
  usePlans,
  useSyncPlanPrice,
  type Plan,
} from './plans.api';

type FormState = { open: boolean; plan: Plan | null };

export const PlansTab = () => {
  const { t, i18n } = useTranslation();
  const plans = usePlans();
  const remove = useDeletePlan();
  const syncPrice = useSyncPlanPrice();
  const [form, setForm] = useState<FormState>({ open: false, plan: null });
  const [deleting, setDeleting] = useState<Plan | null>(null);

  // A limit of 0 means unlimited.
  const limitText = (limit: number) => (limit > 0 ? String(limit) : t('settings.plans.unlimited'));

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.success(t('settings.plans.deleted')),
      onError: toastOperationError,
      onSettled: () => setDeleting(null),
    });
  };

  const sync = (plan: Plan) =>
    syncPrice.mutate(plan.id, {
      onSuccess: (saved) =>
        toast.success(
          t('settings.plans.priceSynced', { name: saved.name, priceId: saved.stripePriceId ?? '' }),
        ),
      onError: toastOperationError,
    });

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        sx={{
          justifyContent: 'flex-end',
        }}
      >
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setForm({ open: true, plan: null })}
        >
          {t('settings.plans.add')}
        </Button>
      </Stack>
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" aria-label={t('settings.tabs.plans')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.plans.name')}</TableCell>
                <TableCell align="center">{t('settings.plans.users')}</TableCell>
                <TableCell align="center">{t('settings.plans.connections')}</TableCell>
                <TableCell align="center">{t('settings.plans.queues')}</TableCell>
                <TableCell align="center">{t('storage.title')}</TableCell>
                <TableCell align="right">{t('settings.plans.value')}</TableCell>
                <TableCell>{t('settings.plans.features')}</TableCell>
                <TableCell>{t('settings.plans.price')}</TableCell>
                <TableCell align="right">{t('settings.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(plans.data ?? []).map((plan) => (
                <TableRow key={plan.id}>
                  <TableCell sx={{ fontWeight: 600 }}>{plan.name}</TableCell>
                  <TableCell align="center">{limitText(plan.users)}</TableCell>
                  <TableCell align="center">{limitText(plan.connections)}</TableCell>
                  <TableCell align="center">{limitText(plan.queues)}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    {plan.storageMb > 0
                      ? formatBytes(plan.storageMb * MB, i18n.language)
                      : t('settings.plans.unlimited')}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    $ {formatPlanValue(plan.value)}
                  </TableCell>
                  <TableCell>
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
                  </TableCell>
                  <TableCell>
                    {plan.stripePriceId ? (
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
                    )}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('settings.plans.syncPrice')}>
                      <span>
                        <IconButton
                          size="small"
                          aria-label={`${t('settings.plans.syncPrice')} ${plan.name}`}
                          disabled={syncPrice.isPending}
                          onClick={() => sync(plan)}
                        >
                          <SyncIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip title={t('settings.edit')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.edit')} ${plan.name}`}
                        onClick={() => setForm({ open: true, plan })}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('settings.delete')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.delete')} ${plan.name}`}
                        onClick={() => setDeleting(plan)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {plans.isPending && <LoadingBox />}
          {plans.isSuccess && plans.data.length === 0 && (
            <Typography
              sx={{
                color: 'text.secondary',
                p: 3,
                textAlign: 'center',
              }}
            >
              {t('settings.plans.empty')}
            </Typography>
          )}
        </TableContainer>
      </Paper>
      <PlanFormDialog
        open={form.open}
        plan={form.plan}
        onClose={() => setForm({ open: false, plan: null })}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('settings.plans.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('settings.plans.deleteText')}
        confirmLabel={t('settings.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
};
