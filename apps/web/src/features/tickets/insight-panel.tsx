import { Box, Chip, Stack, Typography, type ChipProps } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { insightContract, type Sentiment, type TicketInsightView } from '@atendi/shared';
import { call } from '../../api/http-client';
import { useRereadOnChange } from './contact-drawer.api';

// Live insight (issue 40) in the contact drawer: the newest analysis of the conversation (the
// customer's mood, the customer's and the order's data the model found). A new analysis updates the
// ticket (its ticket event, `changed: ['insight']`), and the panel reads it again then.

const insightKey = (ticketId: number) => ['tickets', 'insight', ticketId] as const;

const sentimentColors: Record<Sentiment, ChipProps['color']> = {
  negativo: 'error',
  neutral: 'default',
  positivo: 'success',
};

export const useTicketInsight = (ticketId: number) => {
  useRereadOnChange(ticketId, 'insight', insightKey(ticketId));
  return useQuery({
    queryKey: insightKey(ticketId),
    queryFn: () => call(insightContract.getTicketInsight, { params: { ticketId } }),
    // The drawer works without it.
    meta: { silent: true },
  });
};

const Field = ({ label, value }: { label: string; value: string | null }) =>
  value ? (
    <Box>
      <Typography component="dt" variant="caption" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </Box>
  ) : null;

export const InsightPanel = ({ insight }: { insight: TicketInsightView }) => {
  const { t, i18n } = useTranslation();
  const customer = insight.structured.datos_cliente;
  const order = insight.structured.datos_pedido;
  const number = new Intl.NumberFormat(i18n.language);
  const products = order.productos
    .map((p) => (p.cantidad === null ? p.nombre : `${number.format(p.cantidad)} × ${p.nombre}`))
    .join(', ');
  const fields = [
    [t('tickets.insight.name'), customer.nombre],
    [t('tickets.insight.phone'), customer.telefono],
    [t('tickets.insight.email'), customer.email],
    [t('tickets.insight.address'), customer.direccion],
    [t('tickets.insight.products'), products || null],
    [t('tickets.insight.total'), order.total === null ? null : number.format(order.total)],
    [t('tickets.insight.notes'), order.observaciones],
  ] as const;
  const found = fields.filter(([, value]) => value);
  return (
    <Stack spacing={1} data-testid="insight-panel">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          size="small"
          color={sentimentColors[insight.sentiment]}
          label={t(`tickets.insight.sentiments.${insight.sentiment}`)}
          aria-label={t('tickets.insight.sentiment', {
            sentiment: t(`tickets.insight.sentiments.${insight.sentiment}`),
          })}
        />
        {insight.final && (
          <Chip size="small" variant="outlined" label={t('tickets.insight.final')} />
        )}
      </Stack>
      {found.length > 0 ? (
        <Stack component="dl" spacing={1} sx={{ m: 0 }}>
          {found.map(([label, value]) => (
            <Field key={label} label={label} value={value} />
          ))}
        </Stack>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('tickets.insight.nothingFound')}
        </Typography>
      )}
    </Stack>
  );
};
