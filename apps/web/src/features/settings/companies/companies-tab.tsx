import { useState } from 'react';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { amber } from '@mui/material/colors';
import { alpha, type Theme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLongOutlined';
import SearchIcon from '@mui/icons-material/Search';
import type { CompanyStatus } from '@atendi/shared';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../../api/session';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingBox } from '../../../components/loading-box';
import { StorageUsage } from '../../../components/storage-usage';
import { formatDate } from '../../../lib/dates';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../../lib/use-infinite-scroll';
import { toastOperationError } from '../shared/admin-errors';
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

type FormState = { open: boolean; company: Company | null };

export const CompaniesTab = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const companies = useCompanies(searchParam);
  useLiveCompanies();
  const update = useUpdateCompany();
  const remove = useDeleteCompany();
  const [form, setForm] = useState<FormState>({ open: false, company: null });
  // Kept while the dialog fades out; the next company replaces it.
  const [credentials, setCredentials] = useState<{ email: string; password: string } | null>(null);
  const [isPasswordOpen, setPasswordOpen] = useState(false);
  const [deleting, setDeleting] = useState<Company | null>(null);
  const [billingOf, setBillingOf] = useState<Company | null>(null);

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

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.success(t('settings.companies.deleted')),
      onError: toastOperationError,
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{
          alignItems: { sm: 'center' },
          justifyContent: 'space-between',
        }}
      >
        <TextField
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={t('settings.search')}
          size="small"
          sx={{ flex: 1, maxWidth: { sm: 360 } }}
          slotProps={{
            htmlInput: { 'aria-label': t('settings.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setForm({ open: true, company: null })}
        >
          {t('settings.companies.add')}
        </Button>
      </Stack>

      <Paper variant="outlined">
        <TableContainer
          sx={{ maxHeight: 'calc(100vh - 300px)', minHeight: 240 }}
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="companies-scroll"
        >
          <Table stickyHeader size="small" aria-label={t('settings.tabs.companies')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.companies.name')}</TableCell>
                <TableCell>{t('settings.companies.email')}</TableCell>
                <TableCell>{t('settings.companies.phone')}</TableCell>
                <TableCell>{t('settings.companies.plan')}</TableCell>
                <TableCell>{t('storage.title')}</TableCell>
                <TableCell>{t('settings.companies.status')}</TableCell>
                <TableCell>{t('settings.companies.dueDate')}</TableCell>
                <TableCell>{t('settings.companies.recurrence')}</TableCell>
                <TableCell>{t('settings.companies.createdAt')}</TableCell>
                <TableCell align="right">{t('settings.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((company) => (
                <TableRow
                  key={company.id}
                  data-status={company.effectiveStatus}
                  sx={rowTint(company.effectiveStatus)}
                >
                  <TableCell sx={{ fontWeight: 600 }}>{company.name}</TableCell>
                  <TableCell>{company.email}</TableCell>
                  <TableCell>{company.phone || '—'}</TableCell>
                  <TableCell>{company.plan?.name ?? '—'}</TableCell>
                  <TableCell>
                    <StorageUsage used={company.storageUsed} limit={company.storageLimit} compact />
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      variant="outlined"
                      color={statusChipColour[company.effectiveStatus]}
                      label={t(`settings.companies.statuses.${company.effectiveStatus}`)}
                    />
                  </TableCell>
                  <TableCell>{formatDate(company.dueDate) || '—'}</TableCell>
                  <TableCell>{t(`settings.companies.recurrences.${company.recurrence}`)}</TableCell>
                  <TableCell>{formatDate(company.createdAt)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('settings.companies.subscriptions')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.companies.subscriptions')} ${company.name}`}
                        onClick={() => setBillingOf(company)}
                      >
                        <ReceiptLongIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('settings.edit')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.edit')} ${company.name}`}
                        onClick={() => setForm({ open: true, company })}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('settings.companies.expire')}>
                      {/* A span keeps the tooltip working while the button is disabled. */}
                      <span>
                        <IconButton
                          size="small"
                          aria-label={`${t('settings.companies.expire')} ${company.name}`}
                          disabled={!company.dueDate || update.isPending}
                          onClick={() => expire(company)}
                        >
                          <EventRepeatIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                    {/* The platform company runs everything; the API refuses to delete it. */}
                    <Tooltip
                      title={
                        company.id === user.companyId
                          ? t('settings.companies.ownCompany')
                          : t('settings.delete')
                      }
                    >
                      <span>
                        <IconButton
                          size="small"
                          aria-label={`${t('settings.delete')} ${company.name}`}
                          disabled={company.id === user.companyId}
                          onClick={() => setDeleting(company)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {companies.isPending && <LoadingBox />}
          {companies.isFetchingNextPage && (
            <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
              <CircularProgress size={24} />
            </Box>
          )}
          {companies.isSuccess && rows.length === 0 && (
            <Typography
              sx={{
                color: 'text.secondary',
                p: 3,
                textAlign: 'center',
              }}
            >
              {t('settings.companies.empty')}
            </Typography>
          )}
        </TableContainer>
      </Paper>

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
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('settings.companies.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('settings.companies.deleteText')}
        confirmLabel={t('settings.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
};
