import { useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ReplayIcon from '@mui/icons-material/Replay';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import {
  webhookDeliveryStatuses,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
} from '@atendi/shared';
import { ERROR_TOAST_MS, errorText } from '../../api/toasts';
import { DialogFrame, DialogLoading, DialogView } from '../../components/dialog-frame';
import { LoadingBox } from '../../components/loading-box';
import { actionsColumn, RowAction, type TableColumn } from '../../components/paged-table';
import { formatDateTime } from '../../lib/dates';
import { endpointName, useEventLabel } from './webhook-labels';
import { WebhookTable } from './webhook-table';
import {
  DELIVERIES_PAGE_SIZE,
  useReplayWebhookDelivery,
  useWebhookDeliveries,
  useWebhookDelivery,
} from './webhooks.api';

// Issue 38: one endpoint's delivery log, newest first, 20 a page, by status; a delivery's detail
// (the body sent, every attempt) and sending it again.

const statusColors = {
  pending: 'warning',
  delivered: 'success',
  failed: 'error',
} as const satisfies Record<WebhookDeliveryStatus, string>;

const DeliveryStatusChip = ({ status }: { status: WebhookDeliveryStatus }) => {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={statusColors[status]}
      label={t(`settings.webhooks.log.statuses.${status}`)}
    />
  );
};

// The event's name and, small and monospace, its type as the receiver gets it.
const EventName = ({ type }: { type: string }) => {
  const eventLabel = useEventLabel();
  const label = eventLabel(type);
  return (
    <Box>
      <Typography variant="body2" component="span" sx={{ display: 'block' }}>
        {label}
      </Typography>
      {label !== type && (
        <Typography
          variant="caption"
          component="code"
          color="text.secondary"
          sx={{ fontFamily: 'monospace', display: 'block' }}
        >
          {type}
        </Typography>
      )}
    </Box>
  );
};

const Mono = ({ children }: { children: string }) => (
  <Box component="code" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
    {children}
  </Box>
);

// How a delivery sent now went, in a toast: the test event is sent at once (delivered with its HTTP
// status and time, or why not); a replay is queued behind the endpoint's earlier deliveries.
export const useDeliveryOutcomeToast = () => {
  const { t } = useTranslation();
  return (delivery: WebhookDeliveryDetail, kind: 'test' | 'replay') => {
    const prefix = `settings.webhooks.outcome.${kind}`;
    if (delivery.status === 'delivered') {
      toast.success(
        t(`${prefix}.delivered`, {
          status: delivery.responseStatus ?? '—',
          ms: delivery.durationMs ?? '—',
        }),
      );
      return;
    }
    if (kind === 'replay') {
      toast.success(t('settings.webhooks.outcome.replay.queued'));
      return;
    }
    const error = delivery.error ?? delivery.log.at(-1)?.error ?? null;
    toast.error(t(`${prefix}.failed`, { error: error ?? t('settings.webhooks.log.noAnswer') }), {
      autoClose: ERROR_TOAST_MS,
    });
  };
};

// An endpoint that is off sends nothing again: the button says to turn it on first.
const useReplay = (endpoint: WebhookEndpoint) => {
  const { t } = useTranslation();
  const replay = useReplayWebhookDelivery();
  const outcome = useDeliveryOutcomeToast();
  return {
    isOff: !endpoint.enabled,
    // The button's tooltip: why it is disabled, when it is.
    tooltip: endpoint.enabled
      ? t('settings.webhooks.log.replay')
      : t('settings.webhooks.log.replayOff'),
    send: (deliveryId: number) =>
      replay.mutate(
        { endpointId: endpoint.id, deliveryId },
        { onSuccess: (delivery) => outcome(delivery, 'replay') },
      ),
    // The delivery being sent again, if any.
    busyId: replay.isPending ? replay.variables.deliveryId : null,
  };
};

const msText = (ms: number | null) => (ms === null ? '—' : `${ms} ms`);

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Stack spacing={1}>
    <Typography variant="subtitle2" component="h3">
      {title}
    </Typography>
    {children}
  </Stack>
);

const Detail = ({ label, children }: { label: string; children: ReactNode }) => (
  <Stack direction="row" spacing={1.5} sx={{ alignItems: 'baseline' }}>
    <Typography variant="body2" color="text.secondary" sx={{ flex: '0 0 9rem' }}>
      {label}
    </Typography>
    <Box sx={{ minWidth: 0, typography: 'body2', overflowWrap: 'anywhere' }}>{children}</Box>
  </Stack>
);

// Text as sent or received, kept as it is: monospace, scrolling within its box.
const Preformatted = ({ text, label }: { text: string; label: string }) => (
  <Box
    component="pre"
    aria-label={label}
    tabIndex={0}
    sx={{
      m: 0,
      p: 1.5,
      maxHeight: 320,
      overflow: 'auto',
      fontFamily: 'monospace',
      fontSize: 12,
      bgcolor: 'action.hover',
      borderRadius: 1,
      whiteSpace: 'pre',
    }}
  >
    {text}
  </Box>
);

const DeliveryDetailBody = ({
  endpoint,
  deliveryId,
}: {
  endpoint: WebhookEndpoint;
  deliveryId: number;
}) => {
  const { t } = useTranslation();
  const delivery = useWebhookDelivery(endpoint.id, deliveryId);
  const replay = useReplay(endpoint);
  const title = t('settings.webhooks.log.detailTitle');
  if (!delivery.data)
    return (
      <DialogLoading
        title={title}
        isError={delivery.isError}
        errorText={errorText(delivery.error)}
      />
    );
  const { data } = delivery;
  const isReplaying = replay.busyId === data.id;
  return (
    <DialogView
      title={title}
      actions={
        <Tooltip title={replay.isOff ? replay.tooltip : ''}>
          <span>
            <Button
              startIcon={
                isReplaying ? <CircularProgress size={16} color="inherit" /> : <ReplayIcon />
              }
              disabled={isReplaying || replay.isOff}
              onClick={() => replay.send(data.id)}
            >
              {t('settings.webhooks.log.replay')}
            </Button>
          </span>
        </Tooltip>
      }
    >
      <Stack spacing={3}>
        <Stack spacing={1}>
          <Detail label={t('settings.webhooks.log.event')}>
            <EventName type={data.type} />
          </Detail>
          <Detail label={t('settings.webhooks.log.status')}>
            <DeliveryStatusChip status={data.status} />
          </Detail>
          <Detail label="webhook-id">
            <Mono>{data.messageId}</Mono>
          </Detail>
          <Detail label={t('settings.webhooks.log.createdAt')}>
            {formatDateTime(data.createdAt)}
          </Detail>
          {data.deliveredAt && (
            <Detail label={t('settings.webhooks.log.deliveredAt')}>
              {formatDateTime(data.deliveredAt)}
            </Detail>
          )}
        </Stack>
        <Section title={t('settings.webhooks.log.payload')}>
          <Preformatted
            label={t('settings.webhooks.log.payload')}
            text={JSON.stringify(data.payload, null, 2)}
          />
        </Section>
        <Section title={t('settings.webhooks.log.attemptsTitle', { count: data.log.length })}>
          {data.log.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('settings.webhooks.log.noAttempts')}
            </Typography>
          )}
          {data.log.map((attempt, index) => (
            <Paper key={index} variant="outlined" sx={{ p: 1.5 }} data-testid="webhook-attempt">
              <Stack spacing={1}>
                <Stack
                  direction="row"
                  spacing={1}
                  useFlexGap
                  sx={{ alignItems: 'center', flexWrap: 'wrap' }}
                >
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {t('settings.webhooks.log.attempt', { number: index + 1 })}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {formatDateTime(attempt.at)}
                  </Typography>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={attempt.error ? 'error' : 'success'}
                    label={
                      attempt.status === null
                        ? t('settings.webhooks.log.noResponse')
                        : `HTTP ${attempt.status}`
                    }
                  />
                  <Typography variant="body2" color="text.secondary">
                    {msText(attempt.durationMs)}
                  </Typography>
                </Stack>
                {attempt.error && (
                  <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                    {attempt.error}
                  </Typography>
                )}
                {attempt.response && (
                  <Preformatted
                    label={t('settings.webhooks.log.response')}
                    text={attempt.response}
                  />
                )}
              </Stack>
            </Paper>
          ))}
        </Section>
      </Stack>
    </DialogView>
  );
};

type StatusFilter = WebhookDeliveryStatus | 'all';

const Pager = ({
  page,
  count,
  hasMore,
  onPage,
}: {
  page: number;
  count: number;
  hasMore: boolean;
  onPage: (page: number) => void;
}) => {
  const { t } = useTranslation();
  const from = (page - 1) * DELIVERIES_PAGE_SIZE + 1;
  const to = Math.min(page * DELIVERIES_PAGE_SIZE, count);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'flex-end' }}>
      <Typography variant="body2" color="text.secondary">
        {t('settings.webhooks.log.range', { from, to, count })}
      </Typography>
      <Tooltip title={t('settings.webhooks.log.previous')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('settings.webhooks.log.previous')}
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          >
            <ChevronLeftIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('settings.webhooks.log.next')}>
        <span>
          <IconButton
            size="small"
            aria-label={t('settings.webhooks.log.next')}
            disabled={!hasMore}
            onClick={() => onPage(page + 1)}
          >
            <ChevronRightIcon />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
};

const DeliveriesBody = ({ endpoint }: { endpoint: WebhookEndpoint }) => {
  const { t } = useTranslation();
  const eventLabel = useEventLabel();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpoint.id, status === 'all' ? undefined : status, page);
  const replay = useReplay(endpoint);
  const [detail, setDetail] = useState({ open: false, deliveryId: 0, session: 0 });
  const openDetail = (delivery: WebhookDelivery) =>
    setDetail((current) => ({
      open: true,
      deliveryId: delivery.id,
      session: current.session + 1,
    }));

  const rows = deliveries.data?.deliveries ?? [];
  const columns: TableColumn<WebhookDelivery>[] = [
    {
      header: t('settings.webhooks.log.event'),
      cell: (delivery) => <EventName type={delivery.type} />,
    },
    {
      header: t('settings.webhooks.log.status'),
      cell: (delivery) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <DeliveryStatusChip status={delivery.status} />
          {delivery.error && (
            <Typography
              variant="caption"
              color="error"
              sx={{ overflowWrap: 'anywhere', maxWidth: 260 }}
            >
              {delivery.error}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: t('settings.webhooks.log.attempts'),
      align: 'center',
      cell: (delivery) => delivery.attempts,
    },
    {
      header: t('settings.webhooks.log.httpStatus'),
      align: 'center',
      cell: (delivery) => delivery.responseStatus ?? '—',
    },
    {
      header: t('settings.webhooks.log.duration'),
      sx: { whiteSpace: 'nowrap' },
      cell: (delivery) => msText(delivery.durationMs),
    },
    {
      header: t('settings.webhooks.log.createdAt'),
      sx: { whiteSpace: 'nowrap' },
      cell: (delivery) => formatDateTime(delivery.createdAt),
    },
    actionsColumn(
      t('settings.actions'),
      (delivery) => {
        const name = eventLabel(delivery.type);
        return (
          <>
            <RowAction
              title={t('settings.webhooks.log.view')}
              label={`${t('settings.webhooks.log.view')} ${name} ${delivery.id}`}
              icon={<VisibilityIcon fontSize="small" />}
              onClick={() => openDetail(delivery)}
            />
            <RowAction
              title={replay.tooltip}
              label={`${t('settings.webhooks.log.replay')} ${name} ${delivery.id}`}
              icon={<ReplayIcon fontSize="small" />}
              disabled={replay.isOff || replay.busyId === delivery.id}
              onClick={() => replay.send(delivery.id)}
            />
          </>
        );
      },
      96,
    ),
  ];

  const choose = (next: StatusFilter) => {
    setStatus(next);
    setPage(1);
  };

  return (
    <DialogView title={t('settings.webhooks.log.title', { name: endpointName(endpoint) })}>
      <Stack spacing={2}>
        <TextField
          select
          size="small"
          label={t('settings.webhooks.log.status')}
          value={status}
          onChange={(event) => choose(event.target.value as StatusFilter)}
          sx={{ minWidth: 220, alignSelf: { sm: 'flex-start' } }}
        >
          <MenuItem value="all">{t('settings.webhooks.log.filters.all')}</MenuItem>
          {webhookDeliveryStatuses.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`settings.webhooks.log.filters.${value}`)}
            </MenuItem>
          ))}
        </TextField>
        {deliveries.isError && <Alert severity="error">{errorText(deliveries.error)}</Alert>}
        {deliveries.isPending && <LoadingBox />}
        {deliveries.data && rows.length === 0 && (
          <Typography sx={{ color: 'text.secondary', p: 3, textAlign: 'center' }}>
            {status === 'all'
              ? t('settings.webhooks.log.empty')
              : t('settings.webhooks.log.emptyFiltered')}
          </Typography>
        )}
        {rows.length > 0 && (
          <WebhookTable
            label={t('settings.webhooks.log.tableLabel')}
            columns={columns}
            rows={rows}
            onRowClick={openDetail}
          />
        )}
        {deliveries.data && deliveries.data.count > 0 && (
          <Pager
            page={page}
            count={deliveries.data.count}
            hasMore={deliveries.data.hasMore}
            onPage={setPage}
          />
        )}
      </Stack>
      <DialogFrame
        open={detail.open}
        onClose={() => setDetail((current) => ({ ...current, open: false }))}
        sessionKey={detail.session}
        maxWidth="md"
      >
        <DeliveryDetailBody endpoint={endpoint} deliveryId={detail.deliveryId} />
      </DialogFrame>
    </DialogView>
  );
};

// The log of one endpoint; a new sessionKey opens it afresh (all statuses, first page).
export const WebhookDeliveriesDialog = ({
  open,
  endpoint,
  sessionKey,
  onClose,
}: {
  open: boolean;
  endpoint: WebhookEndpoint | null;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md" stableHeight>
    {endpoint && <DeliveriesBody endpoint={endpoint} />}
  </DialogFrame>
);
