import { useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  CircularProgress,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import type { DashboardReport, DashboardReportGroup, DashboardReportRow } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../api/toasts';
import { RowCard } from '../../components/paged-table';
import type { AppliedFilter } from './dashboard-filter';
import { formatCount, formatRating, formatTenths } from './dashboard-format';
import { downloadDashboardReport, useDashboardReport } from './dashboard.api';

const SKELETON_ROWS = 3;
const COLUMNS = [
  'name',
  'started',
  'finished',
  'avgFirstResponseTime',
  'avgResolutionTime',
  'rating',
  'slaAttainment',
] as const;

const CsvButton = ({
  query,
  report,
}: {
  query: AppliedFilter['view'];
  // The report on screen; undefined while it is not the one asked for (the file is named after it).
  report: DashboardReport | undefined;
}) => {
  const { t } = useTranslation();
  const [isDownloading, setIsDownloading] = useState(false);
  const download = async (shown: DashboardReport) => {
    setIsDownloading(true);
    try {
      await downloadDashboardReport(query, shown);
    } catch (error) {
      toastError(error);
    } finally {
      setIsDownloading(false);
    }
  };
  return (
    <Button
      variant="outlined"
      size="small"
      startIcon={isDownloading ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
      disabled={!report || isDownloading}
      onClick={() => report && void download(report)}
    >
      {t('dashboard.report.downloadCsv')}
    </Button>
  );
};

// Issue 36: the period the page's filter chose, per queue or per agent, to read here or take away as
// CSV (GET /dashboard/report and .csv).
export const DashboardReportCard = ({ query }: { query: AppliedFilter['view'] }) => {
  const { t, i18n } = useTranslation();
  const [groupBy, setGroupBy] = useState<DashboardReportGroup>('queue');
  const report = useDashboardReport(query, groupBy);
  const rows = report.data?.rows;
  const isUpdating = report.isPlaceholderData;
  // Below 600 px each row is a card (components/paged-table.tsx RowCard).
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const language = i18n.language;
  const cells: Record<(typeof COLUMNS)[number], (row: DashboardReportRow) => ReactNode> = {
    // A day's row is named by its day (DD/MM/YYYY); the row of none for the grouping it was answered for.
    name: (row) =>
      (report.data?.groupBy ?? groupBy) === 'day'
        ? row.name.split('-').reverse().join('/')
        : row.id === null
          ? t(`dashboard.report.none.${report.data?.groupBy ?? groupBy}`)
          : row.name,
    started: (row) => formatCount(row.started, language),
    finished: (row) => formatCount(row.finished, language),
    avgFirstResponseTime: (row) => formatTenths(row.avgFirstResponseTime, language),
    avgResolutionTime: (row) => formatTenths(row.avgResolutionTime, language),
    rating: (row) =>
      row.rating === null
        ? '—'
        : t('dashboard.report.ratingOf', {
            value: formatRating(row.rating, language),
            count: row.ratings,
          }),
    slaAttainment: (row) =>
      row.slaAttainment === null
        ? '—'
        : t('dashboard.report.slaOf', {
            value: formatTenths(row.slaAttainment, language),
            met: row.slaMet,
            count: row.slaDecided,
          }),
  };
  const header = (column: (typeof COLUMNS)[number]) => t(`dashboard.report.columns.${column}`);
  // A day's row has no id: its day names it.
  const keyOf = (row: DashboardReportRow) => row.id ?? (row.name || 'none');
  const message = (text: string) => (
    <Typography sx={{ color: 'text.secondary', py: 2, textAlign: 'center' }}>{text}</Typography>
  );
  const empty = report.isError && !report.data ? t('dashboard.report.failed') : undefined;

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="dashboard-report-title"
      aria-busy={!rows || isUpdating}
    >
      <Stack
        direction="row"
        useFlexGap
        spacing={1}
        sx={{ px: 2, pt: 2, pb: 1, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <Typography id="dashboard-report-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t('dashboard.report.title')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={groupBy}
          aria-label={t('dashboard.report.groupBy')}
          onChange={(_event, next: DashboardReportGroup | null) => next && setGroupBy(next)}
        >
          <ToggleButton value="queue">{t('dashboard.report.byQueue')}</ToggleButton>
          <ToggleButton value="user">{t('dashboard.report.byUser')}</ToggleButton>
          <ToggleButton value="day">{t('dashboard.report.byDay')}</ToggleButton>
        </ToggleButtonGroup>
        <CsvButton query={query} report={isUpdating ? undefined : report.data} />
      </Stack>
      {asCards ? (
        <Box sx={{ px: 2, pb: 2, opacity: isUpdating ? 0.5 : 1 }}>
          {!rows &&
            !empty &&
            Array.from({ length: SKELETON_ROWS }, (_, row) => (
              <Skeleton key={row} variant="rounded" height={96} sx={{ mb: 1.5 }} />
            ))}
          {empty && message(empty)}
          {rows?.length === 0 && message(t('dashboard.report.empty'))}
          {rows && rows.length > 0 && (
            <Stack
              component="ul"
              aria-labelledby="dashboard-report-title"
              spacing={1.5}
              sx={{ m: 0, p: 0 }}
            >
              {rows.map((row) => (
                <RowCard
                  key={keyOf(row)}
                  row={row}
                  columns={COLUMNS.map((column) => ({
                    header: header(column),
                    cell: cells[column],
                  }))}
                />
              ))}
            </Stack>
          )}
        </Box>
      ) : (
        <TableContainer>
          <Table
            size="small"
            aria-labelledby="dashboard-report-title"
            sx={{ opacity: isUpdating ? 0.5 : 1 }}
          >
            <TableHead>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableCell key={column} align={column === 'name' ? 'left' : 'right'}>
                    {header(column)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {!rows &&
                !empty &&
                Array.from({ length: SKELETON_ROWS }, (_, row) => (
                  <TableRow key={row}>
                    {COLUMNS.map((column) => (
                      <TableCell key={column}>
                        <Skeleton variant="text" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              {(empty || rows?.length === 0) && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length}>
                    {message(empty ?? t('dashboard.report.empty'))}
                  </TableCell>
                </TableRow>
              )}
              {rows?.map((row) => (
                <TableRow key={keyOf(row)}>
                  {COLUMNS.map((column) =>
                    column === 'name' ? (
                      <TableCell key={column} component="th" scope="row">
                        {cells.name(row)}
                      </TableCell>
                    ) : (
                      <TableCell key={column} align="right">
                        {cells[column](row)}
                      </TableCell>
                    ),
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
};
