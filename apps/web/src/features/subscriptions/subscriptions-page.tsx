import { Alert, AlertTitle, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import AddCardIcon from '@mui/icons-material/AddCardOutlined';
import type { CompanyStatus, SubscriptionView } from '@atendi/shared';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import {
  InvoicesTable,
  isCurrentSubscription,
  SubscriptionsTable,
} from '../../components/billing-tables';
import { LoadingBox } from '../../components/loading-box';
import { StorageUsage } from '../../components/storage-usage';
import { formatDate } from '../../lib/dates';
import { useLiveSubscriptions, useOwnCompany, useSubscriptionsOverview } from './subscriptions.api';

const companyChipColour = {
  active: 'success',
  overdue: 'warning',
  suspended: 'error',
  cancelled: 'default',
} as const satisfies Record<CompanyStatus, string>;

// The company's own status and due date, as the session (kept live by the shell) has them.
const CompanyStatusCard = () => {
  const { t } = useTranslation();
  const { companyStatus, companyDueDate, user } = useCurrentSession();
  const dueDate = formatDate(companyDueDate ?? user.company?.dueDate);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="company-status">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 4 }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
          }}
        >
          <Typography
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('subscriptions.companyStatus')}
          </Typography>
          <Chip
            size="small"
            color={companyChipColour[companyStatus]}
            label={t(`subscriptions.companyStatuses.${companyStatus}`)}
          />
        </Stack>
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
          }}
        >
          <Typography
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('subscriptions.companyDueDate')}
          </Typography>
          <Typography>{dueDate || t('subscriptions.noDueDate')}</Typography>
        </Stack>
      </Stack>
    </Paper>
  );
};

// The company's stored files against its plan's storage (read when the page opens).
const StorageCard = () => {
  const { t } = useTranslation();
  const company = useOwnCompany();
  if (!company.data) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="company-storage">
      <Typography
        gutterBottom
        sx={{
          color: 'text.secondary',
        }}
      >
        {t('storage.title')}
      </Typography>
      <StorageUsage used={company.data.storageUsed} limit={company.data.storageLimit} />
    </Paper>
  );
};

const CurrentSubscriptionBanner = ({ subscription }: { subscription: SubscriptionView }) => {
  const { t } = useTranslation();
  const date = formatDate(subscription.currentPeriodEnd);
  const plan = subscription.plan?.name ?? '—';
  return (
    <Alert severity="success" data-testid="current-subscription">
      <AlertTitle>{t('subscriptions.currentTitle', { plan })}</AlertTitle>
      {subscription.status === 'trialing' && `${t('subscriptions.trialing')} `}
      {date &&
        (subscription.cancelAtPeriodEnd
          ? t('subscriptions.endsOn', { date })
          : t('subscriptions.renewsOn', { date }))}
    </Alert>
  );
};

export const SubscriptionsPage = () => {
  const { t } = useTranslation();
  const overview = useSubscriptionsOverview();
  useLiveSubscriptions();
  const { companyStatus } = useCurrentSession();

  const subscriptions = overview.data?.subscriptions ?? [];
  const invoices = overview.data?.invoices ?? [];
  const current = subscriptions.find(isCurrentSubscription);
  // Unknown while loading; a failed read leaves the way to /subscribe open (it says more).
  const paymentsConfigured = overview.data?.paymentsConfigured ?? true;
  const showsSubscribe = !overview.isPending && paymentsConfigured && !current;

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{
          alignItems: 'center',
          justifyContent: 'space-between',
          flexWrap: 'wrap',
        }}
      >
        <Typography variant="h5" component="h1">
          {t('subscriptions.title')}
        </Typography>
        {showsSubscribe && (
          <Button
            variant="contained"
            startIcon={<AddCardIcon />}
            component={RouterLink}
            to="/subscribe"
          >
            {t('subscriptions.subscribe')}
          </Button>
        )}
      </Stack>

      <CompanyStatusCard />
      <StorageCard />
      {companyStatus !== 'active' && paymentsConfigured && !current && (
        <Alert severity="warning">{t('subscriptions.inactiveHint')}</Alert>
      )}

      {overview.isPending ? (
        <LoadingBox />
      ) : (
        <>
          {!paymentsConfigured && (
            <Alert severity="info" data-testid="payments-not-configured">
              <AlertTitle>{t('subscriptions.notConfiguredTitle')}</AlertTitle>
              {t('subscriptions.notConfigured')}
            </Alert>
          )}
          {current && <CurrentSubscriptionBanner subscription={current} />}

          <Paper variant="outlined">
            <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
              {t('billing.subscriptions')}
            </Typography>
            <SubscriptionsTable subscriptions={subscriptions} label={t('billing.subscriptions')} />
          </Paper>
          <Paper variant="outlined">
            <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
              {t('billing.invoices')}
            </Typography>
            <InvoicesTable invoices={invoices} label={t('billing.invoices')} />
          </Paper>
        </>
      )}
    </Stack>
  );
};
