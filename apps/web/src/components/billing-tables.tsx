import {
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type {
  InvoiceStatus,
  InvoiceView,
  SubscriptionStatus,
  SubscriptionView,
} from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../lib/dates';
import { formatMoney } from '../lib/money';

// SPEC §3/§4: the company's subscriptions and invoices, on its subscriptions page and, read-only,
// in the super user's companies tab.

// The subscription the company is paying for now: it hides the subscribe button and is highlighted.
// A provider trial is as current as a paid period: subscribing again would charge twice.
export const isCurrentSubscription = (subscription: Pick<SubscriptionView, 'status'>) =>
  subscription.status === 'active' || subscription.status === 'trialing';

const subscriptionChipColour = {
  active: 'success',
  trialing: 'info',
  incomplete: 'warning',
  canceled: 'default',
  unknown: 'default',
} as const satisfies Record<SubscriptionStatus, string>;

const invoiceChipColour = {
  paid: 'success',
  open: 'info',
  expired: 'error',
} as const satisfies Record<InvoiceStatus, string>;

const dateOrDash = (value: string | null) => formatDate(value) || '—';

// On a 360 px phone four columns fit only with narrower sides than MUI's 16 px.
const phoneCells = { '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } };

export const SubscriptionsTable = ({
  subscriptions,
  label,
}: {
  subscriptions: readonly SubscriptionView[];
  label: string;
}) => {
  const { t } = useTranslation();
  // Newest first: the first current one is the one the banner names.
  const current = subscriptions.find(isCurrentSubscription);
  return (
    <TableContainer>
      <Table size="small" aria-label={label} sx={phoneCells}>
        <TableHead>
          <TableRow>
            <TableCell>{t('billing.plan')}</TableCell>
            <TableCell>{t('billing.startDate')}</TableCell>
            <TableCell>{t('billing.endDate')}</TableCell>
            <TableCell>{t('billing.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {subscriptions.map((subscription) => {
            const isCurrent = subscription === current;
            return (
              <TableRow key={subscription.id} selected={isCurrent}>
                <TableCell sx={{ fontWeight: isCurrent ? 600 : undefined }}>
                  <Stack
                    direction="row"
                    spacing={1}
                    sx={{
                      alignItems: 'center',
                    }}
                  >
                    <span>{subscription.plan?.name ?? '—'}</span>
                    {isCurrent && (
                      <Chip size="small" color="primary" label={t('billing.current')} />
                    )}
                  </Stack>
                </TableCell>
                <TableCell>{dateOrDash(subscription.startDate)}</TableCell>
                <TableCell>{dateOrDash(subscription.currentPeriodEnd)}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    variant="outlined"
                    color={subscriptionChipColour[subscription.status]}
                    label={t(`billing.subscriptionStatuses.${subscription.status}`)}
                  />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {subscriptions.length === 0 && (
        <Typography
          sx={{
            color: 'text.secondary',
            p: 3,
            textAlign: 'center',
          }}
        >
          {t('billing.noSubscriptions')}
        </Typography>
      )}
    </TableContainer>
  );
};

export const InvoicesTable = ({
  invoices,
  label,
}: {
  invoices: readonly InvoiceView[];
  label: string;
}) => {
  const { t, i18n } = useTranslation();
  return (
    <TableContainer>
      <Table size="small" aria-label={label} sx={phoneCells}>
        <TableHead>
          <TableRow>
            <TableCell align="right">{t('billing.value')}</TableCell>
            <TableCell>{t('billing.dueDate')}</TableCell>
            <TableCell>{t('billing.status')}</TableCell>
            <TableCell>{t('billing.invoice')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invoices.map((invoice) => (
            <TableRow key={invoice.id}>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {formatMoney(invoice.value, i18n.language, invoice.currency)}
              </TableCell>
              <TableCell>{dateOrDash(invoice.dueDate)}</TableCell>
              <TableCell>
                <Chip
                  size="small"
                  variant="outlined"
                  color={invoiceChipColour[invoice.status]}
                  label={t(`billing.invoiceStatuses.${invoice.status}`)}
                />
              </TableCell>
              <TableCell>
                {invoice.hostedInvoiceUrl ? (
                  <Link href={invoice.hostedInvoiceUrl} target="_blank" rel="noopener noreferrer">
                    {t('billing.viewInvoice')}
                  </Link>
                ) : (
                  '—'
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {invoices.length === 0 && (
        <Typography
          sx={{
            color: 'text.secondary',
            p: 3,
            textAlign: 'center',
          }}
        >
          {t('billing.noInvoices')}
        </Typography>
      )}
    </TableContainer>
  );
};
