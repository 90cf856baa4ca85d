import { useState } from 'react';
import {
  Button,
  CircularProgress,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { auditActions, auditContract, type AuditAction } from '@atendi/shared';
import { call } from '../../api/http-client';
import { toastError } from '../../api/toasts';
import { formatDateTime } from '../../lib/dates';
import { saveCsv } from '../../lib/save-file';

type Filters = { action: AuditAction | ''; date_from: string; date_to: string };

const queryOf = (filters: Filters) => ({
  ...(filters.action ? { action: filters.action } : {}),
  ...(filters.date_from ? { date_from: filters.date_from } : {}),
  ...(filters.date_to ? { date_to: filters.date_to } : {}),
});

// Issue 37: who did what in the company, newest first, by action and days, and as CSV.
export const AuditTab = () => {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({ action: '', date_from: '', date_to: '' });
  const entries = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) =>
      call(auditContract.listAudit, { query: { ...queryOf(filters), pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    staleTime: 0,
  });
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];
  const download = async () => {
    try {
      const body: unknown = await call(auditContract.downloadAudit, { query: queryOf(filters) });
      saveCsv(typeof body === 'string' ? body : '', 'audit.csv');
    } catch (error) {
      toastError(error);
    }
  };
  const set = (patch: Partial<Filters>) => setFilters((current) => ({ ...current, ...patch }));
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Stack spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label={t('settings.audit.action')}
            value={filters.action}
            onChange={(event) => set({ action: event.target.value as AuditAction | '' })}
            sx={{ minWidth: 240 }}
          >
            <MenuItem value="">{t('settings.audit.allActions')}</MenuItem>
            {auditActions.map((action) => (
              <MenuItem key={action} value={action}>
                {t(`settings.audit.actions.${action}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="date"
            label={t('settings.audit.from')}
            value={filters.date_from}
            onChange={(event) => set({ date_from: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            type="date"
            label={t('settings.audit.to')}
            value={filters.date_to}
            onChange={(event) => set({ date_to: event.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <Button startIcon={<DownloadIcon />} onClick={() => void download()}>
            {t('settings.audit.csv')}
          </Button>
        </Stack>
        {entries.isPending ? (
          <CircularProgress />
        ) : (
          <Table size="small" aria-label={t('settings.tabs.audit')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.audit.when')}</TableCell>
                <TableCell>{t('settings.audit.who')}</TableCell>
                <TableCell>{t('settings.audit.action')}</TableCell>
                <TableCell>{t('settings.audit.target')}</TableCell>
                <TableCell>{t('settings.audit.address')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell>{formatDateTime(String(entry.createdAt))}</TableCell>
                  <TableCell>{entry.actor || t('settings.audit.nobody')}</TableCell>
                  <TableCell>
                    {t(`settings.audit.actions.${entry.action}`, { defaultValue: entry.action })}
                  </TableCell>
                  <TableCell>{entry.target}</TableCell>
                  <TableCell>{entry.address}</TableCell>
                </TableRow>
              ))}
              {!rows.length && (
                <TableRow>
                  <TableCell colSpan={5}>{t('settings.audit.empty')}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        )}
        {entries.hasNextPage && (
          <Button
            disabled={entries.isFetchingNextPage}
            onClick={() => void entries.fetchNextPage()}
          >
            {t('settings.audit.more')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
};
