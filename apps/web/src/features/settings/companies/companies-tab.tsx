import { useState } from 'react';
import { Chip, Stack, Typography } from '@mui/material';
import { amber } from '@mui/material/colors';
import { alpha, type Theme } from '@mui/material/styles';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import type { AiUsage, CompanyStatus } from '@atendi/shared';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../../api/session';
import { formatAiCount } from '../../../components/ai-usage';
import { StorageUsage } from '../../../components/storage-usage';
import { formatDate } from '../../../lib/dates';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../../lib/use-infinite-scroll';
import { toastOperationError } from '../shared/admin-errors';
import { AdminTable, AdminToolbar, useAdminDelete } from '../shared/admin-table';
import {
  useCompanies,
  useDeleteCompany,
  useLiveCompanies,
  useUpdateCompany,
  type Company,
  type CreatedCompany,
} from './companies.api';
import { CompanyFormDialog } from './company-form-dialog';
import { CompanyPasswordDialog } from './company-password-dialog';
import { CompanySubscriptionsDialog } from './company-subscriptions-dialog';

// SPEC §4: overdue rows yellow, suspended red, cancelled grey; tints that read in both themes.
const rowTint = (status: CompanyStatus) => (theme: Theme) => {
  const colour = {
    active: null,
    overdue: amber[500],
    suspended: theme.palette.error.main,
    cancelled: theme.palette.grey[500],
  }[status];
  return colour
    ? { backgroundColor: alpha(colour, theme.palette.mode === 'dark' ? 0.22 : 0.16) }
    : {};
};

const statusChipColour = {
  active: 'success',
  overdue: 'warning',
  suspended: 'error',
  cancelled: 'default',
} as const;

// SPEC §9 plan quotas: the company's AI answers this month, its agents against its plan's (with the
// answers each may send), and the agents whose answers ran out.
const CompanyAiUsage = ({ usage }: { usage: AiUsage }) => {
  const { t, i18n } = useTranslation();
  if (usage.agents === 0 && usage.messages === 0 && usage.tokens === 0) return '—';
  const count = (value: number) => formatAiCount(value, i18n.language);
  const plan = [
    usage.agentsLimit > 0
      ? t('settings.companies.aiAgents', { used: usage.agents, limit: usage.agentsLimit })
      : t('settings.companies.aiAgentsUnlimited', { count: usage.agents }),
    usage.messagesLimit > 0 &&
      t('settings.companies.aiPerAgent', { limit: count(usage.messagesLimit) }),
    // Issue 40: the tokens every use of AI spent this month, against the plan's.
    usage.tokensLimit > 0
      ? t('settings.companies.aiTokens', {
          used: count(usage.tokens),
          limit: count(usage.tokensLimit),
        })
      : usage.tokens > 0 &&
        t('settings.companies.aiTokensUnlimited', { used: count(usage.tokens) }),
  ];
  return (
    <Stack spacing={0.25} sx={{ alignItems: 'flex-start' }} data-testid="company-ai-usage">
      <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
        {t('settings.companies.aiMessages', { count: usage.messages, used: count(usage.messages) })}
      </Typography>
      <Typography variant="caption" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }}>
        {plan.filter(Boolean).join(' · ')}
      </Typography>
      {usage.exhaustedAgents > 0 && (
        <Chip
          size="small"
          variant="outlined"
          color="warning"
          label={t('settings.companies.aiExhausted', { count: usage.exhaustedAgents })}
        />
      )}
    </Stack>
  );
};

type FormState = { open: boolean; company: Company | null };

export const CompaniesTab = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const companies = useCompanies(searchParam);
  useLiveCompanies();
  const update = useUpdateCompany();
  const deleteCompany = useDeleteCompany();
  const [form, setForm] = useState<FormState>({ open: false, company: null });
  // Kept while the dialog fades out; the next company replaces it.
  const [credentials, setCredentials] = useState<{ email: string; password: string } | null>(null);
  const [isPasswordOpen, setPasswordOpen] = useState(false);
  const [billingOf, setBillingOf] = useState<Company | null>(null);
  const remove = useAdminDelete<Company>({
    remove: {
      mutate: (company, options) => deleteCompany.mutate(company.id, options),
      isPending: deleteCompany.isPending,
    },
    deletedText: t('settings.companies.deleted'),
    title: (company) => t('settings.companies.deleteTitle', { name: company?.name ?? '' }),
    message: t('settings.companies.deleteText'),
  });

  const rows = companies.data?.pages.flatMap((page) => page.companies) ?? [];
  const scroll = useInfiniteScroll({
    hasNextPage: companies.hasNextPage,
    isFetchingNextPage: companies.isFetchingNextPage,
    fetchNextPage: companies.fetchNextPage,
    loadedCount: rows.length,
  });

  const closeForm = () => setForm({ open: false, company: null });

  const onCreated = (company: CreatedCompany) => {
    closeForm();
    if (company.adminPassword) {
      setCredentials({ email: company.email, password: company.adminPassword });
      setPasswordOpen(true);
    }
  };

  const expire = (company: Company) =>
    update.mutate(
      { id: company.id, expire: true },
      {
        onSuccess: (saved) =>
          toast.success(t('settings.companies.expired', { date: formatDate(saved.dueDate) })),
        onError: toastOperationError,
      },
    );

  return (
    <Stack spacing={2}>
      <AdminToolbar
        addLabel={t('settings.companies.add')}
        onAdd={() => setForm({ open: true, company: null })}
        search={{ value: search, onChange: setSearch }}
      />
      <AdminTable
        label={t('settings.tabs.companies')}
        rows={rows}
        nameOf={(company) => company.name}
        isPending={companies.isPending}
        isFetchingMore={companies.isFetchingNextPage}
        isEmpty={companies.isSuccess && rows.length === 0}
        emptyText={t('settings.companies.empty')}
        scroll={{ ref: scroll.ref, onScroll: scroll.onScroll, testId: 'companies-scroll' }}
        rowProps={(company) => ({
          'data-status': company.effectiveStatus,
          sx: rowTint(company.effectiveStatus),
        })}
        columns={[
          {
            label: t('settings.companies.name'),
            sx: { fontWeight: 600 },
            cell: (company) => company.name,
          },
          { label: t('settings.companies.email'), cell: (company) => company.email },
          { label: t('settings.companies.phone'), cell: (company) => company.phone || '—' },
          { label: t('settings.companies.plan'), cell: (company) => company.plan?.name ?? '—' },
          {
            label: t('storage.title'),
            cell: (company) => (
              <StorageUsage used={company.storageUsed} limit={company.storageLimit} compact />
            ),
          },
          {
            label: t('settings.companies.ai'),
            cell: (company) => <CompanyAiUsage usage={company.aiUsage} />,
          },
          {
            label: t('settings.companies.status'),
            cell: (company) => (
              <Chip
                size="small"
                variant="outlined"
                color={statusChipColour[company.effectiveStatus]}
                label={t(`settings.companies.statuses.${company.effectiveStatus}`)}
              />
            ),
          },
          {
            label: t('settings.companies.dueDate'),
            cell: (company) => formatDate(company.dueDate) || '—',
          },
          {
            label: t('settings.companies.recurrence'),
            cell: (company) => t(`settings.companies.recurrences.${company.recurrence}`),
          },
          {
            label: t('settings.companies.createdAt'),
            cell: (company) => formatDate(company.createdAt),
          },
        ]}
        actions={[
          {
            label: t('settings.companies.subscriptions'),
            icon: <ReceiptLongIcon fontSize="small" />,
            onClick: setBillingOf,
          },
          {
            label: t('settings.edit'),
            icon: <EditIcon fontSize="small" />,
            onClick: (company) => setForm({ open: true, company }),
          },
          {
            label: t('settings.companies.expire'),
            icon: <EventRepeatIcon fontSize="small" />,
            onClick: expire,
            disabled: (company) => !company.dueDate || update.isPending,
          },
          {
            // The platform company runs everything; the API refuses to delete it.
            label: t('settings.delete'),
            icon: <DeleteIcon fontSize="small" />,
            onClick: remove.ask,
            disabled: (company) => company.id === user.companyId,
            tooltip: (company) =>
              company.id === user.companyId
                ? t('settings.companies.ownCompany')
                : t('settings.delete'),
          },
        ]}
      />

      <CompanyFormDialog
        open={form.open}
        company={form.company}
        onClose={closeForm}
        onCreated={onCreated}
      />
      <CompanyPasswordDialog
        open={isPasswordOpen}
        credentials={credentials}
        onClose={() => setPasswordOpen(false)}
      />
      <CompanySubscriptionsDialog company={billingOf} onClose={() => setBillingOf(null)} />
      {remove.dialog}
    </Stack>
  );
};
