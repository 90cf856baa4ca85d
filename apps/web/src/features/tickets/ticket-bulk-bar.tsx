import { useState } from 'react';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { TICKET_BULK_MAX } from '@atendi/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { lazyDialog } from '../../lib/lazy-component';
import type { BulkChange } from './tickets.api';

const BulkTransferDialog = lazyDialog(() =>
  import('./ticket-bulk-dialogs').then((module) => module.BulkTransferDialog),
);
const BulkTagDialog = lazyDialog(() =>
  import('./ticket-bulk-dialogs').then((module) => module.BulkTagDialog),
);

type Step = 'resolve' | 'transfer' | 'tag';

// Issue 36: the list's selection mode. How many rows are checked (or that every ticket the list
// matches is chosen, up to TICKET_BULK_MAX), and the actions on them; while one runs, a progress
// bar and nothing to click.
export const TicketBulkBar = ({
  count,
  allMatching,
  canSelectAll,
  canResolve,
  isBusy,
  onSelectAll,
  onClear,
  onCancel,
  onRun,
}: {
  count: number;
  allMatching: boolean;
  // Whether the list shown has a query to match (the search tab before any search has none).
  canSelectAll: boolean;
  // Resolving resolved tickets does nothing: the resolved list does not offer it.
  canResolve: boolean;
  isBusy: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  onCancel: () => void;
  onRun: (change: BulkChange) => void;
}) => {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step | null>(null);
  const tooMany = !allMatching && count > TICKET_BULK_MAX;
  const canAct = !isBusy && !tooMany && (allMatching || count > 0);
  const scope = allMatching
    ? t('tickets.bulk.scopeAll', { max: TICKET_BULK_MAX })
    : t('tickets.bulk.scope', { count });
  const run = (change: BulkChange) => {
    setStep(null);
    onRun(change);
  };
  const actionProps = { size: 'small', variant: 'outlined', disabled: !canAct } as const;

  return (
    <Box
      component="section"
      aria-label={t('tickets.bulk.label')}
      sx={{ borderBottom: 1, borderColor: 'divider', px: 1, py: 0.5, flexShrink: 0 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography role="status" variant="body2" sx={{ flex: 1, fontWeight: 500 }}>
          {allMatching
            ? t('tickets.bulk.allChosen', { max: TICKET_BULK_MAX })
            : t('tickets.bulk.selected', { count })}
        </Typography>
        <Button size="small" onClick={onCancel} disabled={isBusy}>
          {t('common.cancel')}
        </Button>
      </Stack>
      {allMatching ? (
        <Button size="small" onClick={onClear} disabled={isBusy}>
          {t('tickets.bulk.clear')}
        </Button>
      ) : (
        <Button size="small" onClick={onSelectAll} disabled={isBusy || !canSelectAll}>
          {t('tickets.bulk.selectAll', { max: TICKET_BULK_MAX })}
        </Button>
      )}
      {tooMany && (
        <Typography variant="caption" color="error" component="p">
          {t('tickets.bulk.tooMany', { max: TICKET_BULK_MAX })}
        </Typography>
      )}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, my: 0.5 }}>
        {canResolve && (
          <Button {...actionProps} onClick={() => setStep('resolve')}>
            {t('tickets.bulk.resolve')}
          </Button>
        )}
        <Button {...actionProps} onClick={() => run({ action: 'return' })}>
          {t('tickets.bulk.return')}
        </Button>
        <Button {...actionProps} onClick={() => setStep('transfer')}>
          {t('tickets.bulk.transfer.open')}
        </Button>
        <Button {...actionProps} onClick={() => setStep('tag')}>
          {t('tickets.bulk.tag.open')}
        </Button>
      </Stack>
      {isBusy && <LinearProgress aria-label={t('tickets.bulk.running')} />}
      <ConfirmDialog
        open={step === 'resolve'}
        title={t('tickets.bulk.resolveTitle')}
        message={
          allMatching
            ? t('tickets.bulk.resolveAllText', { max: TICKET_BULK_MAX })
            : t('tickets.bulk.resolveText', { count })
        }
        confirmLabel={t('tickets.bulk.resolve')}
        onConfirm={() => run({ action: 'resolve' })}
        onClose={() => setStep(null)}
      />
      <BulkTransferDialog
        open={step === 'transfer'}
        scope={scope}
        onClose={() => setStep(null)}
        onSubmit={run}
      />
      <BulkTagDialog
        open={step === 'tag'}
        scope={scope}
        onClose={() => setStep(null)}
        onSubmit={run}
      />
    </Box>
  );
};
