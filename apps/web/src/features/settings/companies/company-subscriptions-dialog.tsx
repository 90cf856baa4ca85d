import { Alert, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { InvoicesTable, SubscriptionsTable } from '../../../components/billing-tables';
import { LoadingBox } from '../../../components/loading-box';
import { useCompanySubscriptions, type Company } from './companies.api';
import { DialogFrame, DialogView } from '../../../components/dialog-frame';

// Read-only: a company's subscriptions and invoices, as its own subscriptions page lists them.
const CompanySubscriptions = ({ company }: { company: Company }) => {
  const { t } = useTranslation();
  const overview = useCompanySubscriptions(company.id);
  if (overview.isPending) return <LoadingBox />;
  if (overview.isError)
    return <Alert severity="error">{t('settings.companies.billingError')}</Alert>;
  const { subscriptions, invoices, paymentsConfigured } = overview.data;
  return (
    <Stack spacing={2}>
      {!paymentsConfigured && (
        <Alert severity="info">{t('settings.companies.paymentsNotConfigured')}</Alert>
      )}
      <Typography variant="subtitle1" component="h3">
        {t('billing.subscriptions')}
      </Typography>
      <SubscriptionsTable
        subscriptions={subscriptions}
        label={t('settings.companies.subscriptionsOf', { name: company.name })}
      />
      <Typography variant="subtitle1" component="h3">
        {t('billing.invoices')}
      </Typography>
      <InvoicesTable
        invoices={invoices}
        label={t('settings.companies.invoicesOf', { name: company.name })}
      />
    </Stack>
  );
};

export const CompanySubscriptionsDialog = ({
  company,
  onClose,
}: {
  company: Company | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <DialogFrame open={company !== null} onClose={onClose} maxWidth="md">
      <DialogView title={t('settings.companies.subscriptionsTitle', { name: company?.name ?? '' })}>
        {company && <CompanySubscriptions company={company} />}
      </DialogView>
    </DialogFrame>
  );
};
