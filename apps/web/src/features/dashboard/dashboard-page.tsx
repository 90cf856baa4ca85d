import { useState } from 'react';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { can, DASHBOARD_MAX_RANGE_DAYS, type DashboardView } from '@atendi/shared';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentSession } from '../../api/session';
import { ERROR_TOAST_MS } from '../../api/toasts';
import { AttendantsTable } from './attendants-table';
import { DashboardCharts } from './dashboard-charts';
import { DashboardCounters } from './dashboard-counters';
import { applyFilter, byDates, defaultFilter, type DashboardFilter } from './dashboard-filter';
import { DashboardFilterBar } from './dashboard-filter-bar';
import { formatDayIn } from './dashboard-format';
import { DashboardReportCard } from './dashboard-report';
import { useDashboardView } from './dashboard.api';
import { GettingStartedCard } from './getting-started-card';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

// Which calendar days the figures cover, as the server counted them ([from, to) in its time zone).
const PeriodCaption = ({ period }: { period: DashboardView['period'] }) => {
  const { t } = useTranslation();
  const from = formatDayIn(new Date(period.from), period.timeZone);
  const to = formatDayIn(new Date(Date.parse(period.to) - 1), period.timeZone);
  const text =
    period.timeZone === browserTimeZone()
      ? t('dashboard.period', { from, to })
      : t('dashboard.periodInZone', { from, to, timeZone: period.timeZone });
  return (
    <Typography
      variant="body2"
      data-testid="dashboard-period"
      sx={{
        color: 'text.secondary',
      }}
    >
      {text}
    </Typography>
  );
};

const LoadError = ({ onRetry }: { onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack
        spacing={2}
        sx={{
          alignItems: 'flex-start',
        }}
      >
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('dashboard.loadError')}
        </Typography>
        <Button variant="outlined" onClick={onRetry}>
          {t('dashboard.retry')}
        </Button>
      </Stack>
    </Paper>
  );
};

// SPEC §2 Dashboard: filter, counters, attendants and the two charts, for admins; then the report.
const AdminDashboard = () => {
  const { t } = useTranslation();
  const [initialFilter] = useState<DashboardFilter>(() => defaultFilter());
  const [applied, setApplied] = useState(() =>
    byDates(initialFilter.dateFrom, initialFilter.dateTo),
  );
  const view = useDashboardView(applied.view);

  const apply = (filter: DashboardFilter) => {
    const result = applyFilter(filter);
    if ('problem' in result) {
      toast.error(
        t(`dashboard.filter.problems.${result.problem}`, { max: DASHBOARD_MAX_RANGE_DAYS }),
        { autoClose: ERROR_TOAST_MS },
      );
      return;
    }
    setApplied(result.applied);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('menu.dashboard')}
      </Typography>
      <DashboardFilterBar initial={initialFilter} onApply={apply} />
      {view.data && <PeriodCaption period={view.data.period} />}
      {view.isError && !view.data ? (
        <LoadError onRetry={() => void view.refetch()} />
      ) : (
        <>
          <DashboardCounters counters={view.data?.counters} isUpdating={view.isPlaceholderData} />
          <AttendantsTable attendants={view.data?.attendants} isUpdating={view.isPlaceholderData} />
        </>
      )}
      <DashboardCharts range={applied.charts} />
      <DashboardReportCard query={applied.view} />
    </Stack>
  );
};

// Agents have no figures to see (SPEC §6 dashboard:view); their work is in the tickets.
const Welcome = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('menu.dashboard')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Stack
          spacing={2}
          sx={{
            alignItems: 'flex-start',
          }}
        >
          <Typography variant="h6" component="p">
            {t('dashboard.welcome.title', { name: user.name })}
          </Typography>
          <Typography
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('dashboard.welcome.text')}
          </Typography>
          <Button variant="contained" component={RouterLink} to="/tickets">
            {t('dashboard.welcome.action')}
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
};

// The getting-started checklist (admins, until done) sits above the dashboard.
export const DashboardPage = () => {
  const { user } = useCurrentSession();
  return (
    <Stack spacing={3}>
      <GettingStartedCard />
      {can(user, 'dashboard:view') ? <AdminDashboard /> : <Welcome />}
    </Stack>
  );
};
