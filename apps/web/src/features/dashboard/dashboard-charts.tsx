import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Box, Button, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AppliedFilter } from './dashboard-filter';
import { useTicketsPerDay, useTicketsPerUser } from './dashboard.api';
import type { ChartPoint } from './tickets-chart';

// chart.js and its React wrapper arrive only when a chart is first shown.
const TicketsChart = lazy(() =>
  import('./tickets-chart').then((module) => ({ default: module.TicketsChart })),
);

const CHART_HEIGHT = 280;

type ChartRange = AppliedFilter['charts'];

const ChartSkeleton = () => <Skeleton variant="rounded" height={CHART_HEIGHT} />;

const ChartMessage = ({ children }: { children: ReactNode }) => (
  <Box sx={{ height: CHART_HEIGHT, display: 'grid', placeItems: 'center', textAlign: 'center' }}>
    {children}
  </Box>
);

// A titled card around one chart: a skeleton while loading, a retry after a failure (the toast has
// told what happened), a sentence when the period has nothing to draw.
const ChartCard = ({
  id,
  title,
  query,
  isEmpty,
  children,
}: {
  id: string;
  title: string;
  query: UseQueryResult;
  isEmpty: boolean;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  let body: ReactNode;
  if (query.isPending) body = <ChartSkeleton />;
  else if (query.isError && query.data === undefined)
    body = (
      <ChartMessage>
        <Stack
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
            {t('dashboard.charts.failed')}
          </Typography>
          <Button variant="outlined" size="small" onClick={() => void query.refetch()}>
            {t('dashboard.retry')}
          </Button>
        </Stack>
      </ChartMessage>
    );
  else if (isEmpty)
    body = (
      <ChartMessage>
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('dashboard.charts.empty')}
        </Typography>
      </ChartMessage>
    );
  else
    body = (
      <Box sx={{ height: CHART_HEIGHT, opacity: query.isPlaceholderData ? 0.5 : 1 }}>
        <Suspense fallback={<ChartSkeleton />}>{children}</Suspense>
      </Box>
    );

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={`${id}-title`}
      aria-busy={query.isFetching}
      sx={{ p: 2, minWidth: 0 }}
    >
      <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {body}
    </Paper>
  );
};

// "2025-03-09" → "09/03" on the axis and "09/03/2025" in the values list (SPEC §9 date format).
const dayLabels = (label: string) => {
  const [year, month, day] = label.split('-');
  if (!year || !month || !day) return { label, longLabel: label };
  return { label: `${day}/${month}`, longLabel: `${day}/${month}/${year}` };
};

const TicketsPerUserCard = ({ range }: { range: ChartRange }) => {
  const { t } = useTranslation();
  const query = useTicketsPerUser(range);
  const title = t('dashboard.charts.ticketsUsers.title');
  const points = useMemo<ChartPoint[]>(
    () =>
      (query.data?.data ?? []).map((row) => ({
        label: row.name,
        longLabel: row.name,
        value: row.total,
      })),
    [query.data],
  );
  return (
    <ChartCard id="dashboard-tickets-users" title={title} query={query} isEmpty={!points.length}>
      <TicketsChart
        kind="bar"
        name={title}
        points={points}
        yTitle={t('dashboard.charts.tickets')}
      />
    </ChartCard>
  );
};

const TicketsPerDayCard = ({ range }: { range: ChartRange }) => {
  const { t } = useTranslation();
  const query = useTicketsPerDay(range);
  const title = t('dashboard.charts.ticketsDay.title');
  const isHourly = query.data?.unit === 'hour';
  const points = useMemo<ChartPoint[]>(
    () =>
      (query.data?.data ?? []).map((row) => ({
        ...(query.data?.unit === 'hour'
          ? { label: row.label, longLabel: row.label }
          : dayLabels(row.label)),
        value: row.total,
      })),
    [query.data],
  );
  // Every day of the period comes back, zeros too: a period without tickets has nothing to draw.
  const isEmpty = points.every((point) => point.value === 0);
  return (
    <ChartCard id="dashboard-tickets-day" title={title} query={query} isEmpty={isEmpty}>
      <TicketsChart
        kind="line"
        name={title}
        points={points}
        xTitle={t(isHourly ? 'dashboard.charts.hours' : 'dashboard.charts.days')}
        yTitle={t('dashboard.charts.tickets')}
      />
    </ChartCard>
  );
};

// SPEC §2 Dashboard: the two charts, side by side on wide screens.
export const DashboardCharts = ({ range }: { range: ChartRange }) => (
  <Box
    sx={{
      display: 'grid',
      gap: 2,
      gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' },
    }}
  >
    <TicketsPerUserCard range={range} />
    <TicketsPerDayCard range={range} />
  </Box>
);
