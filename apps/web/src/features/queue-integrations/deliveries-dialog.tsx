import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormControlLabel,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { IntegrationDelivery } from '@atendi/shared';
import { errorText } from '../../api/toasts';
import { LoadingBox } from '../../components/loading-box';
import { formatDateTime } from '../../lib/dates';
import { uniqueRows } from '../../lib/paged-cache';
import { useIntegrationDeliveries } from './queue-integrations.api';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

export type DeliveriesTarget = { id: number; name: string };

// The events the runtime records; one the client does not know yet is shown as the API names it.
const eventKeys: Record<string, string> = {
  'message.received': 'messageReceived',
  'typebot.startChat': 'typebotStart',
  'typebot.continueChat': 'typebotContinue',
  'dialogflow.detectIntent': 'dialogflowIntent',
};

// One message of the exchange: received from the contact, or sent to the contact (the flow's answer).
const ExchangeLine = ({ label, text }: { label: string; text: string }) => (
  <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
    <Box component="span" sx={{ fontWeight: 'fontWeightMedium', color: 'text.secondary' }}>
      {label}:
    </Box>{' '}
    {text}
  </Typography>
);

const DeliveryRow = ({ delivery }: { delivery: IntegrationDelivery }) => {
  const { t, i18n } = useTranslation();
  const eventKey = eventKeys[delivery.event];
  const { received } = delivery;
  return (
    <TableRow sx={{ verticalAlign: 'top' }}>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(delivery.createdAt)}</TableCell>
      <TableCell>
        {eventKey ? t(`queueIntegrations.deliveries.events.${eventKey}`) : delivery.event}
      </TableCell>
      <TableCell sx={{ minWidth: 220, maxWidth: 360 }}>
        <Stack spacing={0.5}>
          {received && (
            <ExchangeLine
              label={t('queueIntegrations.deliveries.received')}
              text={received.body.trim() || t('queueIntegrations.deliveries.attachment')}
            />
          )}
          {delivery.sent.map((text, index) => (
            <ExchangeLine key={index} label={t('queueIntegrations.deliveries.sent')} text={text} />
          ))}
        </Stack>
      </TableCell>
      <TableCell align="right">{delivery.attempt}</TableCell>
      <TableCell>
        <Chip
          size="small"
          color={delivery.ok ? 'success' : 'error'}
          label={
            delivery.ok
              ? t('queueIntegrations.deliveries.ok')
              : t('queueIntegrations.deliveries.failed')
          }
        />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {delivery.status ?? t('queueIntegrations.deliveries.noConnection')}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {t('queueIntegrations.deliveries.duration', {
          ms: new Intl.NumberFormat(i18n.language).format(delivery.durationMs),
        })}
      </TableCell>
      <TableCell sx={{ minWidth: 200, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {delivery.error}
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>
        {delivery.ticketId === null
          ? ''
          : t('queueIntegrations.deliveries.ticket', { id: delivery.ticketId })}
      </TableCell>
    </TableRow>
  );
};

const DeliveriesBody = ({
  integration,
  failedOnly,
}: {
  integration: DeliveriesTarget;
  failedOnly: boolean;
}) => {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(failedOnly);
  const query = useIntegrationDeliveries(integration.id, failed);
  // Deliveries recorded between two pages push older ones onto the next page: each is shown once.
  const deliveries = uniqueRows(query.data, 'deliveries');
  const columns = [
    'date',
    'event',
    'messages',
    'attempt',
    'result',
    'status',
    'duration',
    'error',
    'ticket',
  ];

  // A failed next page is asked for again; any other failure reads the list again.
  const failure = query.isError && (
    <Alert
      severity="error"
      sx={{ alignSelf: 'stretch' }}
      action={
        <Button
          color="inherit"
          size="small"
          disabled={query.isFetching}
          onClick={() =>
            void (query.isFetchNextPageError ? query.fetchNextPage() : query.refetch())
          }
        >
          {t('queueIntegrations.deliveries.retry')}
        </Button>
      }
    >
      {t('queueIntegrations.deliveries.loadFailed', { reason: errorText(query.error) })}
    </Alert>
  );

  const body = () => {
    if (query.isPending) return <LoadingBox />;
    if (query.isError && !query.isFetchNextPageError) return failure;
    if (deliveries.length === 0)
      return (
        <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
          {failed
            ? t('queueIntegrations.deliveries.emptyFailed')
            : t('queueIntegrations.deliveries.empty')}
        </Box>
      );
    return (
      <Stack
        spacing={2}
        sx={{
          alignItems: 'center',
        }}
      >
        <TableContainer>
          <Table size="small" aria-label={t('queueIntegrations.deliveries.listLabel')}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell
                    key={column}
                    align={column === 'attempt' || column === 'duration' ? 'right' : undefined}
                  >
                    {t(`queueIntegrations.deliveries.columns.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {deliveries.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {failure}
        {query.hasNextPage && !query.isFetchNextPageError && (
          <Button
            variant="outlined"
            disabled={query.isFetchingNextPage}
            startIcon={
              query.isFetchingNextPage ? (
                <CircularProgress size={16} color="inherit" aria-label={t('app.loading')} />
              ) : undefined
            }
            onClick={() => void query.fetchNextPage()}
          >
            {t('queueIntegrations.deliveries.loadMore')}
          </Button>
        )}
      </Stack>
    );
  };

  return (
    <DialogView title={t('queueIntegrations.deliveries.title', { name: integration.name })}>
      <Stack spacing={2}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{
            alignItems: { xs: 'flex-start', sm: 'center' },
          }}
        >
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
              flexGrow: 1,
            }}
          >
            {t('queueIntegrations.deliveries.intro')}
          </Typography>
          <FormControlLabel
            control={
              <Switch checked={failed} onChange={(event) => setFailed(event.target.checked)} />
            }
            label={t('queueIntegrations.deliveries.failedOnly')}
          />
        </Stack>
        {body()}
      </Stack>
    </DialogView>
  );
};

// What the platform exchanged with an integration's flow (why it did not answer a contact). A new
// sessionKey gives each opening a fresh body, starting on failedOnly.
export const DeliveriesDialog = ({
  open,
  integration,
  failedOnly,
  sessionKey,
  onClose,
}: {
  open: boolean;
  integration: DeliveriesTarget | null;
  failedOnly: boolean;
  sessionKey: number;
  onClose: () => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="lg">
    {integration && <DeliveriesBody integration={integration} failedOnly={failedOnly} />}
  </DialogFrame>
);
